"""Dramatis Personae's moves at the table, each a plain command of its parts.

A single roller's dice: ``--related TRAIT``, ``--precise TRAIT`` (a Strength adds, a Weakness
subtracts, DP7), ``--mod LABEL[=DICE]`` from the book's tables, ``--gm "TEXT=+1"`` for the GM's own
modifier, ``--band``, ``--time NORMAL:TAKEN``, ``--pool N`` (beyond the pool: borrowed, DP36),
``--saved N``, ``--bad N``, ``--debt N``, ``--accept N`` (penalty dice taken for dice on the roll),
``--after-pool N`` and ``--after-accept N`` (dice added after the roll), ``--faces`` and
``--after-faces``. In a contest or melee each of these is keyed by the roller: ``--precise
"Bryn=Melee combat"``, ``--faces Bryn=6,5,4,1``.
"""

from typing import Annotated, Optional

import typer

from yarnlog.cli.context import run_command
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt, OverrideOpt, VisibilityOpt

Many = Optional[list[str]]


def listed(values: Many) -> tuple[str, ...]:
    return tuple(n.strip() for value in values or () for n in value.split(",") if n.strip())


def _int(text: str, what: str) -> int:
    from yarnlog.core.referee import invalid

    cleaned = text.strip()
    invalid(cleaned.lstrip("+-").isdigit(), f"{what} is a whole number, not {text!r}")
    return int(cleaned)


def _faces(text: Optional[str], what: str = "--faces") -> Optional[tuple[int, ...]]:
    from yarnlog.cli.options import parse_faces

    return parse_faces(text, what)


def _mods(table: str, mods: Many, gm: Many) -> tuple[tuple[str, str, Optional[int]], ...]:
    from yarnlog.core.referee import invalid

    found: list[tuple[str, str, Optional[int]]] = []
    for item in mods or ():
        label, _, dice = item.partition("=")
        found.append((table, label.strip(), _int(dice, f"the dice of {label.strip()}") if dice else None))
    for item in gm or ():
        text, sep, dice = item.rpartition("=")
        invalid(bool(sep) and bool(text.strip()), f"--gm is TEXT=DICE, like \"skilled climber=+1\", not {item!r}")
        found.append(("gm", text.strip(), _int(dice, f"the dice of {text.strip()}")))
    return tuple(found)


def _time(text: Optional[str]) -> Optional[tuple[str, str]]:
    from yarnlog.core.referee import invalid

    if text is None:
        return None
    normal, sep, taken = text.partition(":")
    invalid(bool(sep), f"--time is NORMAL:TAKEN on the time chart, like \"30 minutes:10 seconds\", not {text!r}")
    return normal.strip(), taken.strip()


Related = Annotated[Many, typer.Option("--related", help="A Strength or Weakness related to the task (±1d6).")]
Precise = Annotated[Many, typer.Option("--precise", help="A Strength, Weakness or Minutia precisely relevant "
                                       "(±2d6).")]
Mod = Annotated[Many, typer.Option("--mod", help="A modifier of the book's table: LABEL or LABEL=DICE.")]
GmMod = Annotated[Many, typer.Option("--gm", help="The GM's own modifier: TEXT=DICE, e.g. \"climber helps=+1\".")]
BandOpt = Annotated[Optional[str], typer.Option("--band", help="Range band: point-blank, short, medium, long, "
                                                "very-long, extreme.")]
TimeOpt = Annotated[Optional[str], typer.Option("--time", help="NORMAL:TAKEN on the time chart (±2d6 a step).")]
PoolOpt = Annotated[int, typer.Option("--pool", help="Pool dice added before the roll (beyond the pool: debt).")]
SavedOpt = Annotated[int, typer.Option("--saved", help="Saved bonus dice spent on the roll.")]
BadOpt = Annotated[int, typer.Option("--bad", help="Saved penalty dice the GM applies to the roll.")]
DebtOpt = Annotated[int, typer.Option("--debt", help="Dice of debt the GM applies to the roll (reading 3).")]
AcceptOpt = Annotated[int, typer.Option("--accept", help="Penalty dice taken for as many dice on the roll.")]
AfterPoolOpt = Annotated[int, typer.Option("--after-pool", help="Pool dice added after the roll, two a die.")]
AfterAcceptOpt = Annotated[int, typer.Option("--after-accept", help="Penalty dice taken after the roll, one a die.")]
FacesOpt = Annotated[Optional[str], typer.Option("--faces", help="The faces rolled, 6,5,2 (omit: the tool rolls).")]
AfterFacesOpt = Annotated[Optional[str], typer.Option("--after-faces", help="Faces of the dice added after the roll.")]
TaskOpt = Annotated[str, typer.Option("--task", help="What is attempted.")]


def _one(character: str, table: str, related: Many, precise: Many, mod: Many, gm: Many, band: Optional[str],
         time: Optional[str], pool: int, saved: int, bad: int, debt: int, accept: int, after_pool: int,
         after_accept: int, faces: Optional[str], after_faces: Optional[str]):
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.dramatis_personae.parts.rolls import RollInput

    counts = (pool, saved, bad, debt, accept, after_pool, after_accept)
    invalid(all(0 <= n <= 500 for n in counts), "a number of dice is 0 to 500")
    attributes = tuple((t, "related") for t in listed(related)) + tuple((t, "precise") for t in listed(precise))
    return RollInput(character, attributes, _mods(table, mod, gm), band, _time(time), pool, saved, bad, debt, accept,
                     after_pool, after_accept, _faces(faces), _faces(after_faces, "--after-faces"))


def challenge(
    character: Annotated[str, typer.Argument(help="Who rolls.")],
    difficulty: Annotated[str, typer.Option("--difficulty", "-d", help="Chart name (Difficult) or number (14).")]
    = "Typical",
    event: Annotated[Optional[int], typer.Option("--retry-of", help="The failed challenge (event N) this "
                                                 "retries: one time step later, no bonus (DP22).")] = None,
    task: TaskOpt = "", related_trait: Related = None, precise_trait: Precise = None, mod: Mod = None,
    gm: GmMod = None,
    band: BandOpt = None, time: TimeOpt = None, pool: PoolOpt = 0, saved: SavedOpt = 0, bad: BadOpt = 0,
    debt: DebtOpt = 0, accept: AcceptOpt = 0, after_pool: AfterPoolOpt = 0, after_accept: AfterAcceptOpt = 0,
    faces: FacesOpt = None, after_faces: AfterFacesOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """A challenge: 3d6 plus or minus dice, keep the best or worst three, against the chart (DP6-DP23)."""
    from yarnlog.rulesets.dramatis_personae.parts.rolls import RollChallenge

    roll = _one(character, "challenge", related_trait, precise_trait, mod, gm, band, time, pool, saved, bad, debt,
                accept, after_pool, after_accept, faces, after_faces)
    run_command(campaign, RollChallenge(roll, difficulty=difficulty, task=task, retry_of=event), by=by,
                override_reason=override, as_json=as_json)


def ranged(
    character: Annotated[str, typer.Argument(help="Who shoots.")],
    distance: Annotated[Optional[float], typer.Option("--distance", help="Metres to the target (with --weapon).")]
    = None,
    weapon: Annotated[str, typer.Option("--weapon", help="vision, bow, pistol or rifle: its range table.")] = "bow",
    difficulty: Annotated[str, typer.Option("--difficulty", "-d", help="Base: 11 as the book writes it "
                                            "(reading 4); another number or chart name if the GM says so.")]
    = "11",
    task: TaskOpt = "", related_trait: Related = None, precise_trait: Precise = None, mod: Mod = None,
    gm: GmMod = None,
    band: BandOpt = None, pool: PoolOpt = 0, saved: SavedOpt = 0, bad: BadOpt = 0, debt: DebtOpt = 0,
    accept: AcceptOpt = 0, after_pool: AfterPoolOpt = 0, after_accept: AfterAcceptOpt = 0, faces: FacesOpt = None,
    after_faces: AfterFacesOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """A ranged attack: a challenge from 11+ with the range band and the ranged modifiers (DP19, DP31-DP32)."""
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.dramatis_personae.parts.rolls import RollChallenge
    from yarnlog.rulesets.dramatis_personae.rules.modifiers import band_at

    if distance is not None:
        invalid(band is None, "give --band or --distance, not both")
        band = band_at(distance, weapon).value
    roll = _one(character, "ranged", related_trait, precise_trait, mod, gm, band, None, pool, saved, bad, debt,
                accept, after_pool, after_accept, faces, after_faces)
    run_command(campaign, RollChallenge(roll, difficulty=difficulty, kind="ranged", task=task), by=by,
                override_reason=override, as_json=as_json)


def finish(
    character: Annotated[str, typer.Argument(help="The winner of a complete success.")],
    target: Annotated[str, typer.Argument(help="The loser to finish.")],
    fight: Annotated[str, typer.Option("--fight", help="The fight.")] = "melee",
    related_trait: Related = None, precise_trait: Precise = None, mod: Mod = None, gm: GmMod = None, pool: PoolOpt = 0,
    saved: SavedOpt = 0, accept: AcceptOpt = 0, after_pool: AfterPoolOpt = 0, after_accept: AfterAcceptOpt = 0,
    faces: FacesOpt = None, after_faces: AfterFacesOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """A finishing blow: a challenge at 14+ after a complete success in melee (DP27, line 171)."""
    from yarnlog.rulesets.dramatis_personae.parts.rolls import RollChallenge

    roll = _one(character, "melee", related_trait, precise_trait, mod, gm, None, None, pool, saved, 0, 0, accept,
                after_pool, after_accept, faces, after_faces)
    run_command(campaign, RollChallenge(roll, kind="finishing-blow", fight=fight, target=target), by=by,
                override_reason=override, as_json=as_json)


def wound(
    character: Annotated[str, typer.Argument(help="The loser holding penalty dice.")],
    fight: Annotated[str, typer.Option("--fight", help="The fight.")] = "melee",
    gm: GmMod = None, pool: PoolOpt = 0, saved: SavedOpt = 0,
    lent: Annotated[Many, typer.Option("--saved-of", help="Another character's saved bonus dice, NAME=N, spent "
                                       "on this roll by that player (line 221).")] = None,
    opposed: Annotated[Many, typer.Option("--opponent", help="An opponent's penalty dice held from the fight, "
                                          "NAME=N, the GM applies (line 221).")] = None,
    ruling: Annotated[str, typer.Option("--ruling", help="The GM's ruling with --opponent (default: line 221's "
                                        "words).")] = "",
    faces: FacesOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Lasting wounds at the end of a melee: a roll against 11 with the penalty dice in hand (line 221)."""
    from yarnlog.rulesets.dramatis_personae.parts.rolls import RollChallenge

    roll = _one(character, "melee", None, None, None, gm, None, None, pool, saved, 0, 0, 0, 0, 0, faces, None)
    run_command(campaign, RollChallenge(roll, kind="wound", fight=fight, lent=_named_dice(lent, "--saved-of"),
                                        opposed=_named_dice(opposed, "--opponent"), ruling=ruling),
                by=by, override_reason=override, as_json=as_json)


def _named_dice(values: Many, what: str) -> tuple[tuple[str, int], ...]:
    """``NAME=N`` options: dice by character."""
    from yarnlog.core.referee import invalid

    found = []
    for item in values or ():
        name, sep, dice = item.rpartition("=")
        invalid(bool(sep) and bool(name.strip()), f"{what} is NAME=N, like Bryn=2, not {item!r}")
        found.append((name.strip(), _int(dice, f"the dice of {name.strip()}")))
    return tuple(found)


def _keyed(values: Many, names: tuple[str, ...], what: str) -> dict[str, list[str]]:
    """``NAME=VALUE`` options of a contest, by roller (names matched ignoring case)."""
    from yarnlog.core.referee import invalid

    found: dict[str, list[str]] = {}
    for item in values or ():
        who, sep, value = item.partition("=")
        match = next((n for n in names if n.lower() == who.strip().lower()), None)
        invalid(bool(sep) and match is not None, f"{what} is NAME=VALUE with NAME one of {', '.join(names)}, "
                                                 f"not {item!r}")
        assert match is not None
        found.setdefault(match, []).append(value.strip())
    return found


def _contest(names: tuple[str, ...], table: str, related: Many, precise: Many, mod: Many, gm: Many, pool: Many,
             saved: Many, bad: Many, debt: Many, accept: Many, after_pool: Many, after_accept: Many, faces: Many,
             after_faces: Many):
    keyed = {what: _keyed(values, names, what) for what, values in (
        ("--related", related), ("--precise", precise), ("--mod", mod), ("--gm", gm), ("--pool", pool),
        ("--saved", saved), ("--bad", bad), ("--debt", debt), ("--accept", accept), ("--after-pool", after_pool),
        ("--after-accept", after_accept), ("--faces", faces), ("--after-faces", after_faces))}

    def count(what: str, name: str) -> int:
        return sum(_int(v, what) for v in keyed[what].get(name, ()))

    def last(what: str, name: str) -> Optional[str]:
        given = keyed[what].get(name)
        return given[-1] if given else None

    return tuple(_one(name, table, keyed["--related"].get(name), keyed["--precise"].get(name),
                      keyed["--mod"].get(name), keyed["--gm"].get(name), None, None, count("--pool", name),
                      count("--saved", name), count("--bad", name), count("--debt", name), count("--accept", name),
                      count("--after-pool", name), count("--after-accept", name), last("--faces", name),
                      last("--after-faces", name))
                 for name in names)


K = "(NAME=VALUE, repeat)"
KRelated = Annotated[Many, typer.Option("--related", help=f"A related Strength or Weakness {K}.")]
KPrecise = Annotated[Many, typer.Option("--precise", help=f"A precisely relevant Strength or Weakness {K}.")]
KMod = Annotated[Many, typer.Option("--mod", help=f"A table modifier, NAME=LABEL or NAME=LABEL=DICE {K}.")]
KGm = Annotated[Many, typer.Option("--gm", help=f"The GM's modifier, NAME=TEXT=DICE {K}.")]
KPool = Annotated[Many, typer.Option("--pool", help=f"Pool dice before the roll {K}.")]
KSaved = Annotated[Many, typer.Option("--saved", help=f"Saved bonus dice spent {K}.")]
KBad = Annotated[Many, typer.Option("--bad", help=f"Saved penalty dice applied {K}.")]
KDebt = Annotated[Many, typer.Option("--debt", help=f"Dice of debt applied {K}.")]
KAccept = Annotated[Many, typer.Option("--accept", help=f"Penalty dice taken for dice on the roll {K}.")]
KAfterPool = Annotated[Many, typer.Option("--after-pool", help=f"Pool dice after the roll, two a die {K}.")]
KAfterAccept = Annotated[Many, typer.Option("--after-accept", help=f"Penalty dice taken after the roll, one a die "
                                            f"(line 61) {K}.")]
KFaces = Annotated[Many, typer.Option("--faces", help=f"Faces rolled, NAME=6,5,2 (omit: the tool rolls) {K}.")]
KAfterFaces = Annotated[Many, typer.Option("--after-faces", help=f"Faces of the dice added after the roll {K}.")]


def contest(
    cast: Annotated[list[str], typer.Argument(help="Two or more participants.")],
    task: TaskOpt = "", related: KRelated = None, precise: KPrecise = None, mod: KMod = None, gm: KGm = None,
    pool: KPool = None, saved: KSaved = None, bad: KBad = None, debt: KDebt = None, accept: KAccept = None,
    after_pool: KAfterPool = None, after_accept: KAfterAccept = None, faces: KFaces = None,
    after_faces: KAfterFaces = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """A contest: the highest roll wins; 4 more a complete success, twice or a natural 18 a critical (DP24)."""
    from yarnlog.rulesets.dramatis_personae.parts.rolls import RollContest

    names = listed(cast)
    rolls = _contest(names, "challenge", related, precise, mod, gm, pool, saved, bad, debt, accept, after_pool,
                     after_accept, faces, after_faces)
    run_command(campaign, RollContest(rolls, task=task), by=by, override_reason=override, as_json=as_json)


def melee(
    cast: Annotated[list[str], typer.Argument(help="The combatants.")],
    fight: Annotated[str, typer.Option("--fight", help="The fight this round belongs to.")] = "melee",
    related: KRelated = None, precise: KPrecise = None, mod: KMod = None, gm: KGm = None, pool: KPool = None,
    saved: KSaved = None, bad: KBad = None, debt: KDebt = None, accept: KAccept = None,
    after_pool: KAfterPool = None, after_accept: KAfterAccept = None, faces: KFaces = None,
    after_faces: KAfterFaces = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """A melee round: a contest with the Combat Results (DP27) and the melee modifiers (DP29)."""
    from yarnlog.rulesets.dramatis_personae.parts.rolls import RollContest

    names = listed(cast)
    rolls = _contest(names, "melee", related, precise, mod, gm, pool, saved, bad, debt, accept, after_pool,
                     after_accept, faces, after_faces)
    run_command(campaign, RollContest(rolls, melee=True, fight=fight), by=by, override_reason=override,
                as_json=as_json)


def award(
    character: Annotated[str, typer.Argument(help="Who earns the dice.")],
    dice: Annotated[int, typer.Argument(help="How many.")],
    reason: Annotated[str, typer.Option("--reason", help="What was done (a heroic act, a cowardly one...).")],
    bad: Annotated[bool, typer.Option("--bad", help="Penalty (bad) dice, not bonus (good) dice.")] = False,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """The GM awards good or bad dice for play (DP37, line 61)."""
    from yarnlog.rulesets.dramatis_personae.parts.ledger import AwardDice

    run_command(campaign, AwardDice(character, "bad" if bad else "good", dice, reason), by=by,
                override_reason=override, as_json=as_json)


def advance(
    character: Annotated[str, typer.Argument(help="Who buys the next level.")],
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Buy the next level with 10 × that level saved bonus dice, between adventures (DP38-DP39)."""
    from yarnlog.rulesets.dramatis_personae.parts.characters import BuyLevel

    run_command(campaign, BuyLevel(character), by=by, override_reason=override, as_json=as_json)


def ruling(
    text: Annotated[str, typer.Argument(help="The GM's ruling.")],
    about: Annotated[str, typer.Option("--about", help="Whom or what it concerns.")] = "",
    rule: Annotated[str, typer.Option("--rule", help="Where the book leaves it to the GM (e.g. DP26).")] = "",
    visibility: VisibilityOpt = "everyone",
    campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
) -> None:
    """Record a GM ruling where the book gives one: a tie, both flee, consequences, recovery, no roll."""
    from yarnlog.rulesets.dramatis_personae.parts.rolls import RecordRuling

    run_command(campaign, RecordRuling(text, about, rule), by=by, visibility=visibility, as_json=as_json)


def character_create(
    name: Annotated[str, typer.Argument(help="The character's name.")],
    player: Annotated[str, typer.Option("--player", help="Who plays the character.")],
    level: Annotated[int, typer.Option("--level", help="Experience level (0 a typical person, most start at 1).")]
    = 1,
    strength: Annotated[Many, typer.Option("--strength", help="Strengths (A,B or repeated).")] = None,
    weakness: Annotated[Many, typer.Option("--weakness", help="Weaknesses (A,B or repeated).")] = None,
    general: Annotated[Many, typer.Option("--general", help="Which of them are general.")] = None,
    minutia: Annotated[Many, typer.Option("--minutia", help="Minutiae, one Quirk each.")] = None,
    quirk: Annotated[Many, typer.Option("--quirk", help="Quirks.")] = None,
    background: Annotated[str, typer.Option("--background")] = "",
    description: Annotated[str, typer.Option("--description")] = "",
    status: Annotated[str, typer.Option("--status")] = "",
    possession: Annotated[Many, typer.Option("--possession", help="Possessions (A,B or repeated).")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Create a character: level, Strengths (at most level + Weaknesses), Minutiae and Quirks (DP1-DP4)."""
    from yarnlog.rulesets.dramatis_personae.parts.characters import CreateCharacter

    run_command(campaign, CreateCharacter(name, player, level, listed(strength), listed(weakness), listed(general),
                                          listed(minutia), listed(quirk), background, description, status,
                                          listed(possession)),
                by=by, override_reason=override, as_json=as_json)


def character_minutia(
    character: Annotated[str, typer.Argument()], minutia: Annotated[str, typer.Argument()],
    campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
) -> None:
    """A Minutia gained in play (no Quirk needed: reading 13)."""
    from yarnlog.rulesets.dramatis_personae.parts.characters import AddMinutia

    run_command(campaign, AddMinutia(character, minutia), by=by, as_json=as_json)


def character_develop(
    character: Annotated[str, typer.Argument()],
    trait: Annotated[str, typer.Argument(help="The Strength or Weakness.")],
    change: Annotated[str, typer.Option("--change", help="strength-gained, weakness-eased, weakness-removed or "
                                        "background.")],
    ruling_text: Annotated[str, typer.Option("--ruling", help="The GM's ruling on the rate (line 65).")],
    campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
) -> None:
    """The GM rules a Strength developed or a Weakness eased (line 65)."""
    from yarnlog.rulesets.dramatis_personae.parts.characters import DevelopAttribute

    run_command(campaign, DevelopAttribute(character, change, trait, ruling_text), by=by, as_json=as_json)


def adventure_start(
    title: Annotated[str, typer.Argument(help="The adventure's title.")] = "",
    campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
) -> None:
    """Start an adventure: every pool is set to level² dice (DP33)."""
    from yarnlog.rulesets.dramatis_personae.parts.ledger import StartAdventure

    run_command(campaign, StartAdventure(title), by=by, as_json=as_json)


def adventure_end(campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False) -> None:
    """End the adventure: unused pool dice lapse (DP34)."""
    from yarnlog.rulesets.dramatis_personae.parts.ledger import EndAdventure

    run_command(campaign, EndAdventure(), by=by, as_json=as_json)


def pool_restore(
    character: Annotated[str, typer.Argument()], dice: Annotated[int, typer.Argument()],
    ruling_text: Annotated[str, typer.Option("--ruling", help="Why the GM makes them available again.")],
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """The GM makes used pool dice available again (DP34, line 67)."""
    from yarnlog.rulesets.dramatis_personae.parts.ledger import RestorePool

    run_command(campaign, RestorePool(character, dice, ruling_text), by=by, override_reason=override,
                as_json=as_json)


def fight_end(
    fight: Annotated[str, typer.Argument(help="The fight.")] = "melee",
    campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
) -> None:
    """End a fight: the penalty dice in hand clear (reading 7)."""
    from yarnlog.rulesets.dramatis_personae.parts.rolls import EndFight

    run_command(campaign, EndFight(fight), by=by, as_json=as_json)


def _group(help_text: str, *verbs) -> typer.Typer:
    group = typer.Typer(help=help_text, no_args_is_help=True)
    for name, verb in verbs:
        group.command(name)(verb)
    return group


def register(app: typer.Typer) -> None:
    for name, verb in (("award", award), ("advance", advance), ("challenge", challenge), ("ranged", ranged),
                       ("contest", contest), ("melee", melee), ("finish", finish), ("wound", wound),
                       ("ruling", ruling)):
        app.command(name)(verb)
    app.add_typer(_group("Characters: create one; a Minutia gained; a GM ruling on development.",
                         ("create", character_create), ("minutia", character_minutia),
                         ("develop", character_develop)), name="character")
    app.add_typer(_group("Adventures: start one (pools of level² dice), end it.",
                         ("start", adventure_start), ("end", adventure_end)), name="adventure")
    app.add_typer(_group("The dice pool: used dice made available again by the GM.", ("restore", pool_restore)),
                  name="pool")
    app.add_typer(_group("Fights: end one (penalty dice in hand clear).", ("end", fight_end)), name="fight")
