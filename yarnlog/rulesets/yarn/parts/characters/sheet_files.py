"""Character creation from plain data: the CLI's options and sheet files (JSON) as a :class:`CreateCharacter`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from yarnlog.core.referee import InvalidCommand, invalid, present
from yarnlog.rulesets.yarn.parts.characters.part import CreateCharacter
from yarnlog.rulesets.yarn.parts.characters.sheets import FlawData, HitPointBasis, RelationshipData, TraitData, WantData
from yarnlog.rulesets.yarn.rules import traits
from yarnlog.rulesets.yarn.rules.dice import RollSpec, roll
from yarnlog.rulesets.yarn.rules.traits import TraitKind

# -- building commands from plain data (the CLI, sheet files) ---------------------------------


KIND_NAMES = {"standard": TraitKind.STANDARD, "technical": TraitKind.TECHNICAL, "unusual": TraitKind.TECHNICAL,
              "narrow": TraitKind.NARROW, "narrow-technical": TraitKind.NARROW_TECHNICAL,
              **{kind.value: kind for kind in TraitKind}}


def parse_kind(text: str) -> TraitKind:
    return present(KIND_NAMES.get(text.strip().casefold()),
                   f"a trait's kind is one of {', '.join(sorted(KIND_NAMES))}, not {text!r}")


def roll_dice(count: int, rng: random.Random | None = None) -> list[int]:
    """Faces of ``count`` dice rolled by the tool (a secure source unless ``rng`` is given)."""
    return list(roll(RollSpec(count), rng).faces)


def _trait_data(item: Any) -> dict:
    if isinstance(item, str):
        name, _, kind = item.rpartition(":") if ":" in item else (item, "", "standard")
        return {"name": name.strip(), "kind": parse_kind(kind)}
    return {**item, "kind": parse_kind(item.get("kind", "standard"))}


def _basis(item: Any, dice: Mapping[str, int], rng: random.Random | None) -> HitPointBasis:
    """``"Tough"`` (listed), ``{"trait": "Tough", "faces": [...]}`` (entered) or ``{"trait": .., "roll": true}``."""
    item = {"trait": item} if isinstance(item, str) else dict(item)
    if item.pop("roll", False):
        invalid(item["trait"] in dice, f"hit points come from a trait the character has, not {item['trait']!r}")
        return HitPointBasis(trait=item["trait"], source="rolled", faces=roll_dice(2 * dice[item["trait"]], rng))
    if item.get("faces"):
        item.setdefault("source", "entered")
    return HitPointBasis(**item)


#: What a sheet must give: the rest of :class:`CreateCharacter` has a default here (no flaw, no sides...).
REQUIRED = ("name", "player", "role", "desire", "central", "hit_point_descriptor", "story")


def creation_command(data: Mapping[str, Any], rng: random.Random | None = None,
                     spelled: Mapping[str, str] | None = None) -> CreateCharacter:
    """A :class:`CreateCharacter` from a sheet as plain data (a JSON file, or the CLI's options).

    Traits are ``"Name:kind"`` or objects with ``name``, ``kind``, ``signs``...; ``signs`` and
    ``descriptions`` map trait (or flaw) names to their sign(s) and description, and
    ``fighting_skills`` lists the fighting skills. Hit-point dice marked ``roll`` are rolled here,
    from ``rng``. A sheet that lacks a :data:`REQUIRED` field is refused naming every one missing,
    as ``spelled`` names it for the user (the CLI: ``{"story": "--story"}``), else as the key.
    """
    missing = [key for key in REQUIRED if data.get(key) is None]
    if missing:
        names = [(spelled or {}).get(key, repr(key)) for key in missing]
        what = "option" if spelled else "field"
        raise InvalidCommand(f"the sheet is incomplete: missing {what}{'s' if len(names) > 1 else ''} "
                             f"{', '.join(names)}")
    data = dict(data)
    try:
        signs = data.pop("signs", {}) or {}
        descriptions = data.pop("descriptions", {}) or {}
        fighting = set(data.pop("fighting_skills", []) or [])
        central = _trait_data(data.pop("central"))
        sides = [_trait_data(s) for s in data.pop("sides", [])]
        flaw = data.pop("flaw", None)
        flaw = {"name": flaw} if isinstance(flaw, str) else dict(flaw) if flaw else None
        for item in (central, *sides, *([flaw] if flaw else [])):
            extra = signs.get(item["name"], [])
            item["signs"] = [*item.get("signs", []), *([extra] if isinstance(extra, str) else extra)]
            if item["name"] in descriptions:
                item["description"] = descriptions[item["name"]]
        for item in (central, *sides):
            item["fighting_skill"] = item.get("fighting_skill", False) or item["name"] in fighting
        superior = data.pop("superior", None)
        dice = {t["name"]: traits.trait_score(t["kind"], traits.Rank.SUPERIOR if t["name"] == superior
                                              else traits.Rank.GOOD) for t in (central, *sides)}
        relationships = data.pop("relationships", {}) or {}
        if isinstance(relationships, Mapping):
            relationships = [{"other": k, "nature": v} for k, v in relationships.items()]
        return CreateCharacter(
            central=TraitData(**central), sides=tuple(TraitData(**s) for s in sides), superior=superior,
            flaw=FlawData(**flaw) if flaw else None,
            hit_point_basis=tuple(_basis(b, dice, rng) for b in data.pop("hit_point_basis", [])),
            relationships=tuple(RelationshipData(**r) for r in relationships),
            wants=tuple(WantData(**w) for w in data.pop("wants", [])),
            poles=tuple(data.pop("poles", ())), equipment=tuple(data.pop("equipment", ())), **data,
        )
    except (ValidationError, TypeError, KeyError, AttributeError) as exc:
        raise InvalidCommand(f"the sheet is incomplete or malformed: {_problem(exc)}") from None


def _problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        return f"{'.'.join(str(x) for x in err['loc'])}: {err['msg']}"
    if isinstance(exc, KeyError):
        return f"missing {exc.args[0]!r}"
    return str(exc)
