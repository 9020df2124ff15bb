"""yarnlog's default report templates (package data; ``yarnlog.render`` loads them).

``page.html.j2`` is the standalone HTML page every HTML report extends (inline style, no
script, nothing fetched from the network, printable); a ruleset keeps its own reports in its
folder (``yarn/``). Copy any file into a folder of your own and pass ``--templates DIR`` to
change it: your copy shadows that one file, the others stay the defaults.
"""
