"""The players' page: ``yarnlog serve``, the campaign in a browser, read-only and live.

A shell over the application layer, like :mod:`yarnlog.cli`: :mod:`.access` finds the participant a
link opens (the secret's hash against the invitations the journal recorded), :mod:`.seen` replays
what that participant may see, :mod:`.pages` asks the campaign's ruleset for its pages (the seam:
no branch on the ruleset here), :mod:`.server` serves them with Starlette, live by server-sent events.
"""
