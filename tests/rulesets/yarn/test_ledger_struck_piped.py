"""Issue 26: the ledger's struck row is visibly struck when piped (no terminal styling): a marker on
the move and in the exchange, with the amendment's words and, for a correction, its change in words
("the tokens: amount 2 → 1"); the row that replaces it is not marked."""

from __future__ import annotations

import json


def _rows(out: str) -> list[str]:
    return out.splitlines()


def _records(out: str) -> list[dict[str, str]]:
    """The ledger's table read back as printed: one record per row, each column's wrapped lines joined."""
    lines = _rows(out)
    header = next(i for i, line in enumerate(lines) if line.startswith("#/sc"))
    names = lines[header].split()
    starts = [lines[header].index(name) for name in names]
    records: list[dict[str, str]] = []
    for line in lines[header + 2:]:
        cells = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], None])]
        if cells[0]:
            records.append(dict.fromkeys(names, ""))
        for name, cell in zip(names, cells):
            records[-1][name] = f"{records[-1][name]} {cell}".strip() if cell else records[-1][name]
    return records


def test_a_corrected_and_a_retracted_movement_read_struck_in_plain_text(cli):
    for args in (("init", "harbor", "--title", "Lantern Harbor", "--gm", "Maya"), ("join", "Ana"), ("join", "Ben"),
                 ("ruling", "tokens", "--from", "kitty", "--to", "Ana", "--amount", "2", "--reason", "a fine speech"),
                 ("ruling", "tokens", "--from", "kitty", "--to", "Ben", "--amount", "1", "--reason", "a toast")):
        assert cli(*args)[0] == 0, args
    speech, toast = [e["sequence"] for e in json.loads(cli("log", "--json")[1])[-2:]]
    line = {"currency": "drama", "amount": 1, "source": "kitty", "destination": "Ana", "chapter": "Tokens",
            "rule": "As ruled by the GM."}
    code, _, err = cli("correct", str(speech), "--set", f"transfers={json.dumps([line])}",
                       "--reason", "one token, not two", "--yes")
    assert code == 0, err
    assert cli("retract", str(toast), "--reason", "the toast was Cy's", "--yes")[0] == 0

    code, out, _ = cli("ledger")  # captured: no terminal, so no strike-through style
    assert code == 0 and "\x1b" not in out
    assert all(len(row) <= 80 for row in _rows(out))
    records = {(r["#/sc"], r["move"]): r for r in _records(out)}
    corrected = records[(str(speech), "\u2717 kitty>Ana 2")]["exchange"]
    assert corrected == (f"\u2717 STRUCK: GM ruling; a fine speech; corrected by #{toast + 1}: one token, not two "
                         "(approved by Maya); the tokens: amount 2 \u2192 1")
    retracted = records[(str(toast), "\u2717 kitty>Ben 1")]["exchange"]
    assert retracted == (f"\u2717 STRUCK: GM ruling; a toast; retracted by #{toast + 2}: the toast was Cy's "
                         "(approved by Maya)")
    assert (str(speech), "kitty>Ana 1") in records  # the movement in force is not struck
    code, out, _ = cli("ledger", "--participant", "Ana")
    assert code == 0 and "\u2717 kitty>Ana 2" in out and "the tokens: amount 2 \u2192 1" in " ".join(out.split())
    [struck] = [r for r in json.loads(cli("ledger", "--json")[1]) if r["struck"] and r["sequence"] == speech]
    assert struck["struck_by"]["change"] == "the tokens: amount 2 \u2192 1"
