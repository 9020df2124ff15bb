"""Realistic Yarn campaigns of any length, for the benchmark: the sample campaign's event mix, repeated.

The journal's deciders are too slow to drive a million commands, so the events are not decided
again: the real sample campaign (``journals/lantern-harbor.jsonl``, recorded command by command
through the CLI) is replayed as data. Its session zero (the table, six characters, their wants)
is kept once; then its three episodes (scenes, petitions, two-ways, forces, challenges, token
moves, bennie votes and spends, rolls, a group effort, consequences, a fight with wounds,
recovery and healing, experience, an override and a retraction) are played again and again,
each time with:

- episodes, scenes and fights renumbered (every ``scene``/``episode``/``combat`` field follows);
- references to earlier events (``breaks``, ``rolls``, ``retracts``) pointed at the new copies;
- the people and places the episodes introduce (Old Tom, Red Callan, Saul Brenner, the harbour's
  locations, a fight's extras) renamed per repetition, since each may be introduced only once;
- fresh event ids and timestamps, and the whole chain sealed again with ``core.chain.seal``.

Only the trait raise (to a fixed score) is left out of the repetitions, and the wounded hero is
nursed back to full health (the sample stops two days short) so the next fight starts alike. The theme rota, drawn
once by the book, is drawn again each lap under a GM override (``override.recorded``), so each
lap's themes are chosen by the same players as the sample's, and so its scenes are called in
the same order.
The campaign is cut at exactly ``events`` events (an override whose cover would run past the end
gives way to notes), so it imports and verifies like the sample: ``tests/bench/test_bench_generate.py`` checks it.

Usage: python bench/generate.py EVENTS [--out FILE]   (prints the path of the cached file)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import tempfile
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from yarnlog.core.chain import GENESIS, seal
from yarnlog.core.envelope import NewEvent, canonical, to_line

SAMPLE = Path(__file__).resolve().parent.parent / "journals" / "lantern-harbor.jsonl"
#: Bump when the generated campaign changes, so stale cached files are not reused.
VERSION = 1

#: Who and what the episodes introduce (once per campaign, so renamed in every repetition).
INTRODUCING = ("yarn.location.introduced", "yarn.supporting.introduced", "yarn.combat.combatant_registered")
#: Played once: the trait raise (to a score stated in the event).
ONCE_ONLY = {"yarn.experience.trait_raised"}
#: Yarn 0.1, "Themes": the theme rota is drawn once, at the end of the first session; redrawn under an override.
THEME_ROTA = {
    "book": "Yarn 0.1", "chapter": "Themes",
    "text": "At the end of the first session, the GM chooses the next precedence ranking. It sets out the "
            "order in which players choose the themes for the following episodes.",
}


def _is_rota(row: dict[str, Any]) -> bool:
    return row["event_type"] == "yarn.precedence.drawn" and row["payload"]["purpose"] == "theme-rota"


def _rota_override(episode: int) -> dict[str, Any]:
    """The GM's override that lets the rota be drawn again after ``episode`` (so every lap's themes match)."""
    return {"event_type": "override.recorded", "schema_version": 1, "sequence": 0, "recorded_by": "Maya",
            "visibility": "everyone",
            "payload": {"by": "Maya", "covers": 1, "reason": "the table draws the theme rota again for a new arc",
                        "rules": [{**THEME_ROTA, "message": "the theme rota is drawn at the end of the first "
                                                            f"session, not after episode {episode}"}]}}
#: The hit points of the sample's wounded hero (Jonah Crane) unhurt.
FULL_HEALTH = 30
#: Event types whose ``number`` is an episode's, a scene's or a fight's.
NUMBERED = {"episode.started": "episode", "episode.ended": "episode", "scene.opened": "scene",
            "scene.closed": "scene", "yarn.combat.started": "combat", "yarn.combat.ended": "combat"}


def sample_lines(path: Path = SAMPLE) -> list[dict[str, Any]]:
    """The sample's events as plain data (its trailer, the last line, left out)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row for row in rows if row.keys() != {"trailer"}]


def _split(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Session zero (up to the first episode) and the episodes after it."""
    first = next(i for i, r in enumerate(rows) if r["event_type"] == "episode.started")
    return rows[:first], rows[first:]


def _counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    return {
        "episode": sum(r["event_type"] == "episode.started" for r in rows),
        "scene": sum(r["event_type"] == "scene.opened" for r in rows),
        "combat": sum(r["event_type"] == "yarn.combat.started" for r in rows),
    }


def _renumber(event_type: str, payload: Any, shift: dict[str, int], seq: dict[int, int], lap: int,
              rota: list[str], introduced: list[str]) -> Any:
    """``payload`` for repetition ``lap``: numbers shifted, references remapped, introduced names renamed."""
    if event_type == "yarn.wounds.healed":
        # Nursed back to full health (the sample stops short), so the next lap's fight starts as this one's.
        levels = list(range(payload["before"] + 2, FULL_HEALTH, 2)) + [FULL_HEALTH]
        payload = {**payload, "days": len(levels), "levels": levels}
    if lap == 0:
        return payload
    text = re.sub(rf"\b({'|'.join(map(re.escape, introduced))})\b", rf"\1 {lap + 1}",
                  json.dumps(payload, ensure_ascii=False))
    data = json.loads(text)

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            out = {}
            for key, value in node.items():
                if key in ("scene", "episode", "combat") and isinstance(value, int) and not isinstance(value, bool):
                    value = value + shift[key]
                elif key in ("breaks", "rolls") and isinstance(value, list) and all(type(v) is int for v in value):
                    value = [seq[v] for v in value]
                elif key in ("retracts", "roll") and type(value) is int:
                    value = seq[value]
                else:
                    value = walk(value)
                out[key] = value
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    data = walk(data)
    if event_type in NUMBERED:
        data["number"] += shift[NUMBERED[event_type]]
    if event_type == "episode.started" and payload["theme_chosen_by"] not in rota:
        data["theme_chosen_by"] = None  # the GM's choice (no player's): the rota drawn after it names the next
    return data


def _new_id(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def events(total: int, campaign_id: str | None = None, seed: int = 8) -> Iterator[dict[str, Any]]:
    """``total`` export lines (plain data, sealed) of a campaign built from the sample's event mix."""
    rows = sample_lines()
    campaign_id = campaign_id or f"bench-{total}"
    zero, episodes = _split(rows)
    per_lap = _counts(episodes)
    introduced = sorted({r["payload"]["name"] for r in episodes if r["event_type"] in INTRODUCING})
    rota = next(r["payload"]["order"] for r in episodes
                if r["event_type"] == "yarn.precedence.drawn" and r["payload"]["purpose"] == "theme-rota")
    rng = random.Random(seed)
    clock = datetime(2026, 1, 1, 19, 0, tzinfo=timezone.utc)
    prev = GENESIS
    sequence = 0

    def plan() -> Iterator[tuple[int, dict[str, Any]]]:
        yield from ((0, r) for r in zero)
        lap = 0
        while True:
            for row in episodes:
                if lap and row["event_type"] in ONCE_ONLY:
                    continue
                if lap and _is_rota(row):
                    yield lap, _rota_override(1 + lap * per_lap["episode"])
                yield lap, row
            lap += 1

    # Keep the remapped sequences of one lap only (a lap's references never reach an earlier lap).
    seq_map: dict[int, int] = {}
    current_lap = -1
    for lap, row in plan():
        if lap != current_lap:
            current_lap, seq_map = lap, {}
        sequence += 1
        seq_map[row["sequence"]] = sequence
        shift = {k: v * lap for k, v in per_lap.items()}
        payload = _renumber(row["event_type"], row["payload"], shift, seq_map, lap, rota, introduced)
        if row["event_type"] == "campaign.created":
            payload = {**payload, "campaign_id": campaign_id, "title": f"Bench campaign of {total} events"}
        clock += timedelta(seconds=rng.randint(5, 90), microseconds=rng.randint(0, 999_999))
        new = NewEvent(
            event_id=_new_id(rng),
            event_type=row["event_type"],
            schema_version=row["schema_version"],
            recorded_at=clock.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            recorded_by=row["recorded_by"],
            visibility=row["visibility"],
            payload=payload,
        )
        left = total - sequence + 1
        if row["event_type"] == "override.recorded" and payload["covers"] >= left:
            # The override's cover would run past the end: the session breaks off with notes instead.
            for number in range(sequence, total + 1):
                event_id = new.event_id if number == sequence else _new_id(rng)
                note = NewEvent(event_id, "note", 1, new.recorded_at, new.recorded_by, "everyone",
                                {"text": "The session breaks off here."})
                stored = seal(campaign_id, number, note, prev)
                prev = stored.hash
                yield to_line(stored)
            return
        stored = seal(campaign_id, sequence, new, prev)
        prev = stored.hash
        yield to_line(stored)
        if sequence == total:
            return


def cache_dir() -> Path:
    path = Path(os.environ.get("YARNLOG_BENCH_CACHE") or Path(tempfile.gettempdir()) / "yarnlog-bench")
    path.mkdir(parents=True, exist_ok=True)
    return path


def campaign_file(total: int, out: Path | None = None) -> Path:
    """The path of a generated campaign of ``total`` events (generated once, then cached)."""
    path = out or cache_dir() / f"campaign-v{VERSION}-{total}.jsonl"
    if path.exists():
        return path
    tmp = path.with_suffix(".part")
    with tmp.open("w", encoding="utf-8") as fh:
        for line in events(total):
            fh.write(canonical(line) + "\n")
    tmp.replace(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", type=int)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    print(campaign_file(args.events, args.out))


if __name__ == "__main__":
    main()
