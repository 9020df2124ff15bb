"""The polyhedral Yarn at the command line: characters, feats, attacks, injuries, fortune and trouble.

``yarnlog character create Iris --player Ana --points 190 --attributes strength=6,dexterity=7,...
--skills sword=3``; ``yarnlog feat Iris --primary dexterity --secondary strength --skill sword
--level --challenge 9 --faces 6,4,6,2`` (omit ``--faces``: the tool rolls from a secure source);
``yarnlog attack Iris --target Orc --weapon "long sword" --location arm ...``; ``yarnlog resist Orc
--secondary strength``; ``yarnlog heal``, ``rest``, ``award``, ``raise``, ``attain``,
``pay-down``, ``train``, ``flashback``, ``stance``, ``tension``, ``trouble``, ``ruling``; and the
reads ``board``, ``ledger`` and ``rolls``. Only typer and :mod:`yarnlog.cli` are imported at start-up.
"""

from typing import Annotated, Optional

import typer

from yarnlog.cli.context import run_command
from yarnlog.cli.options import AsOfOpt, ByOpt, CampaignOpt, EndOfSceneOpt, JsonOpt, OverrideOpt

List = Optional[list[str]]
character_app = typer.Typer(help="Characters built from qualities with ranks.", no_args_is_help=True)


def _items(values: List) -> list[str]:
    return [n.strip() for value in values or () for n in value.split(",") if n.strip()]


def _hindrances(values: List) -> list[tuple[str, str]]:
    from yarnlog.core.referee import InvalidCommand

    out = []
    for item in _items(values):
        name, _, kind = item.rpartition("=")
        if not name.strip():
            raise InvalidCommand(f"{item!r} is not NAME=phobia|sight-or-hearing|other-sense")
        out.append((name.strip(), kind.strip()))
    return out


def _ranked(values: List) -> list[tuple[str, int]]:
    from yarnlog.core.referee import InvalidCommand

    out = []
    for item in _items(values):
        name, _, rank = item.rpartition("=")
        if not name or not rank.strip().lstrip("-").isdigit():
            raise InvalidCommand(f"{item!r} is not NAME=RANK")
        out.append((name.strip(), int(rank)))
    return out


def _faces(text: Optional[str]) -> Optional[tuple[int, ...]]:
    from yarnlog.core.referee import InvalidCommand

    if text is None:
        return None
    parts = [p for p in text.replace(" ", ",").split(",") if p]
    if not all(p.isdigit() for p in parts):
        raise InvalidCommand(f"{text!r} is not a list of faces such as 6,4,2")
    return tuple(int(p) for p in parts)


DrawbackOpt = Annotated[List, typer.Option("--drawback", help="A drawback that applies: NAME=phobia, "
                                         "NAME=sight-or-hearing or NAME=other-sense (P62).")]
ArmOpt = Annotated[List, typer.Option("--arm", help="An injured arm the feat uses, by its injury's number: "
                                      "its severity is a penalty (P48).")]


@character_app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The character's name.")],
    player: Annotated[str, typer.Option("--player", help="Who plays the character.")],
    points: Annotated[int, typer.Option("--points", help="Base points: 15 per attribute plus the level's.")] = 0,
    newcomer: Annotated[bool, typer.Option("--newcomer", help="Join at the lowest-level PC's minimum points.")]
    = False,
    rolled: Annotated[List, typer.Option("--rolled", help="Rolled attributes: NAME=3D10 TOTAL,... (P59).")] = None,
    roll: Annotated[List, typer.Option("--roll", help="Attributes the tool rolls, 3d10 each: NAME,... (P59).")]
    = None,
    attributes: Annotated[List, typer.Option("--attributes", help="NAME=RANK,... (strength=6,dexterity=7)")] = None,
    skills: Annotated[List, typer.Option("--skills", help="NAME=RANK,... (0 to 6).")] = None,
    advantages: Annotated[List, typer.Option("--advantages", help="NAME=RANK,...")] = None,
    drawbacks: Annotated[List, typer.Option("--drawbacks", help="NAME=RANK,... (they give points).")] = None,
    specialties: Annotated[List, typer.Option("--specialties", help="NAME=RANK,...")] = None,
    other: Annotated[List, typer.Option("--property", help="NAME=RANK,... (special items, wealth).")] = None,
    powers: Annotated[List, typer.Option("--powers", help="NAME=RANK,...")] = None,
    power_points: Annotated[int, typer.Option("--power-points", help="A separate pool for powers (P58).")] = 0,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Create a character: its qualities with ranks, checked against its points (P1-P15)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.characters import CreateCharacter

    qualities = tuple((n, kind, r) for kind, listed in (
        ("attribute", attributes), ("skill", skills), ("advantage", advantages), ("drawback", drawbacks),
        ("specialty", specialties), ("property", other), ("power", powers)) for n, r in _ranked(listed))
    command = CreateCharacter(name, player, points, qualities, tuple(_ranked(rolled)), newcomer, tuple(_items(roll)),
                              power_points=power_points)
    run_command(campaign, command, by=by, override_reason=override, as_json=as_json)


def award(character: Annotated[str, typer.Argument()], points: Annotated[int, typer.Argument()],
          reason: Annotated[str, typer.Option("--reason")] = "",
          campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
          as_json: JsonOpt = False) -> None:
    """Award points: at least one a session (P52); a training target takes them as they come (P54)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.characters import AwardPoints

    run_command(campaign, AwardPoints(character, points, reason), by=by, override_reason=override, as_json=as_json)


def _change(how: str):
    def verb(character: Annotated[str, typer.Argument()], quality: Annotated[str, typer.Argument()],
             campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
             as_json: JsonOpt = False) -> None:
        from yarnlog.rulesets.yarn_polyhedral.parts.characters import ChangeQuality

        run_command(campaign, ChangeQuality(character, quality, how), by=by, override_reason=override,
                    as_json=as_json)

    verb.__doc__ = {"raised": "Raise a quality one rank, at the new rank's cost (P53).",
                    "paid-down": "Pay a drawback down one rank, at its current rank (P56)."}[how]
    return verb


def attain(character: Annotated[str, typer.Argument()], quality: Annotated[str, typer.Argument()],
           kind: Annotated[str, typer.Option("--kind", help="skill, advantage, drawback, specialty...")] = "skill",
           rank: Annotated[int, typer.Option("--rank", help="Usually 0; a fixed quality as it is.")] = 0,
           campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
           as_json: JsonOpt = False) -> None:
    """A new quality from the story, usually at rank 0 (P55)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.characters import ChangeQuality

    run_command(campaign, ChangeQuality(character, quality, "attained", kind, rank), by=by,
                override_reason=override, as_json=as_json)


def train(character: Annotated[str, typer.Argument()],
          quality: Annotated[Optional[str], typer.Argument(help="Omit to stop training.")] = None,
          campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False) -> None:
    """Set the quality trained between scenes: raised as soon as its points are saved (P54)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.characters import SetTraining

    run_command(campaign, SetTraining(character, quality), by=by, as_json=as_json)


def flashback(character: Annotated[str, typer.Argument()], quality: Annotated[str, typer.Argument()],
              rank: Annotated[int, typer.Option("--rank")],
              kind: Annotated[str, typer.Option("--kind")] = "skill",
              drawbacks: Annotated[List, typer.Option("--drawbacks", help="New drawbacks NAME=RANK,...")] = None,
              discount: Annotated[bool, typer.Option("--discount", help="The group gives one point.")] = False,
              campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
              as_json: JsonOpt = False) -> None:
    """A flashback claims a quality for saved points and new drawbacks' points (P57)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.characters import UseFlashback

    run_command(campaign, UseFlashback(character, quality, kind, rank, tuple(_ranked(drawbacks)), int(discount)),
                by=by, override_reason=override, as_json=as_json)


def feat(
    character: Annotated[str, typer.Argument()],
    primary: Annotated[str, typer.Option("--primary", help="The primary attribute: the base die.")],
    secondary: Annotated[Optional[str], typer.Option("--secondary", help="A secondary attribute's die.")] = None,
    skill: Annotated[Optional[str], typer.Option("--skill", help="A skill: a die of twice its rank.")] = None,
    level: Annotated[bool, typer.Option("--level", help="Add the level die.")] = False,
    effort: Annotated[bool, typer.Option("--effort", help="Spend an effort: the lower attribute's die.")] = False,
    bonus: Annotated[List, typer.Option("--bonus", help="advantage=8,enhancement=4,time=2")] = None,
    keep: Annotated[List, typer.Option("--keep", help="Keep modifiers: specialty, point-blank, improved-sense, "
                                       "unfamiliar, evading-target, phobia.")] = None,
    fortune_keep: Annotated[int, typer.Option("--fortune-keep", help="Fortune spent to keep more dice.")] = 0,
    explode: Annotated[int, typer.Option("--explode", help="Fortune set aside to explode kept maxima.")] = 0,
    trouble: Annotated[int, typer.Option("--trouble", help="Trouble the narrator spends to force 1s kept.")] = 0,
    challenge: Annotated[Optional[int], typer.Option("--challenge")] = None,
    penalties: Annotated[int, typer.Option("--penalties", help="Added to the challenge.")] = 0,
    faces: Annotated[Optional[str], typer.Option("--faces", help="The faces rolled, die by die.")] = None,
    extra: Annotated[Optional[str], typer.Option("--explosions", help="Explosion faces, one fortune each.")] = None,
    kept: Annotated[Optional[str], typer.Option("--kept", help="The dice kept (1-based); default the best.")] = None,
    what: Annotated[str, typer.Option("--what", help="What the feat is.")] = "",
    initiative: Annotated[bool, typer.Option("--initiative", help="An initiative roll, not the phase's feat.")]
    = False,
    minimum: Annotated[Optional[int], typer.Option("--minimum", help="A range of results: the minimum, raised "
                                                   "10% a point of margin (P60).")] = None,
    drawback: DrawbackOpt = None,
    arm: ArmOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Roll a feat: base die, bonus dice, keep two, fortune and trouble, with its exact odds."""
    hindrances = tuple(_hindrances(drawback))
    run_command(campaign, _feat(character, primary, secondary, skill, level, effort, bonus, keep, fortune_keep,
                                explode, trouble, challenge, penalties, faces, extra, kept, what,
                                purpose="initiative" if initiative else "feat", minimum=minimum,
                                hindrances=hindrances, arms=tuple(_items(arm))),
                by=by, override_reason=override, as_json=as_json)


def _feat(character, primary, secondary, skill, level, effort, bonus, keep, fortune_keep, explode, trouble,
          challenge, penalties, faces, extra, kept, what, **more):
    from yarnlog.rulesets.yarn_polyhedral.parts.feats import RollFeat

    kept_at = _faces(kept)
    return RollFeat(character, primary, secondary, skill, level, effort, tuple(_ranked(bonus)), tuple(_items(keep)),
                    fortune_keep, explode, trouble, challenge, penalties, _faces(faces), _faces(extra) or (),
                    None if kept_at is None else tuple(k - 1 for k in kept_at), what, **more)


def attack(
    character: Annotated[str, typer.Argument()],
    target: Annotated[str, typer.Option("--target")],
    weapon: Annotated[str, typer.Option("--weapon")],
    defense: Annotated[Optional[int], typer.Option("--defense", help="The challenge; omit: the target's "
                                                   "dexterity, --factors and active defense (P37).")] = None,
    factors: Annotated[int, typer.Option("--factors", help="Cover, lighting... added to the defense.")] = 0,
    aim: Annotated[bool, typer.Option("--aim", help="A marksman's step to aim: one more increment.")] = False,
    primary: Annotated[str, typer.Option("--primary")] = "dexterity",
    secondary: Annotated[Optional[str], typer.Option("--secondary")] = None,
    skill: Annotated[Optional[str], typer.Option("--skill")] = None,
    level: Annotated[bool, typer.Option("--level")] = False,
    location: Annotated[Optional[str], typer.Option("--location", help="The location declared.")] = None,
    on_injury: Annotated[bool, typer.Option("--on-injury", help="The location is an existing injury.")] = False,
    damage: Annotated[int, typer.Option("--damage", help="Margin spent on extra melee damage.")] = 0,
    knock_back: Annotated[int, typer.Option("--knock-back", help="Margin spent on knock-back.")] = 0,
    protection: Annotated[int, typer.Option("--protection", help="The target's armour there.")] = 0,
    zones: Annotated[int, typer.Option("--zones", help="Distance in zones, for ranged weapons.")] = 0,
    keep: Annotated[List, typer.Option("--keep")] = None,
    fortune_keep: Annotated[int, typer.Option("--fortune-keep")] = 0,
    explode: Annotated[int, typer.Option("--explode")] = 0,
    trouble: Annotated[int, typer.Option("--trouble")] = 0,
    faces: Annotated[Optional[str], typer.Option("--faces")] = None,
    extra: Annotated[Optional[str], typer.Option("--explosions")] = None,
    drawback: DrawbackOpt = None,
    arm: ArmOpt = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Attack: a feat against the defense whose margin buys a location, damage, knock-back (P37-P44)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.feats import AttackSpec

    spec = AttackSpec(target, weapon, location, on_injury, damage, knock_back, protection, zones, aim, factors)
    run_command(campaign, _feat(character, primary, secondary, skill, level, False, None, keep, fortune_keep,
                                explode, trouble, defense, 0, faces, extra, None, f"attack {target}", attack=spec,
                                hindrances=tuple(_hindrances(drawback)), arms=tuple(_items(arm))),
                by=by, override_reason=override, as_json=as_json)


def resist(
    character: Annotated[str, typer.Argument()],
    secondary: Annotated[str, typer.Option("--secondary", help="strength or will, by the attack.")] = "strength",
    level: Annotated[bool, typer.Option("--level")] = False,
    injury: Annotated[Optional[str], typer.Option("--injury", help="The existing injury the hit adds to.")] = None,
    fortune_keep: Annotated[int, typer.Option("--fortune-keep")] = 0,
    explode: Annotated[int, typer.Option("--explode")] = 0,
    trouble: Annotated[int, typer.Option("--trouble")] = 0,
    faces: Annotated[Optional[str], typer.Option("--faces")] = None,
    extra: Annotated[Optional[str], typer.Option("--explosions")] = None,
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Resist the damage that cleared protection: health + strength or will; the severity (P45-P46)."""
    run_command(campaign, _feat(character, "health", secondary, None, level, False, None, None, fortune_keep,
                                explode, trouble, None, 0, faces, extra, None, "resistance", resist=True,
                                injury=injury),
                by=by, override_reason=override, as_json=as_json)


def heal(character: Annotated[str, typer.Argument()], injury: Annotated[str, typer.Argument()],
         campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
         as_json: JsonOpt = False) -> None:
    """A day of rest heals one severity of an injury, not the one healed last (P50)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.bodies import Heal

    run_command(campaign, Heal(character, injury), by=by, override_reason=override, as_json=as_json)


def rest(character: Annotated[str, typer.Argument()],
         full: Annotated[bool, typer.Option("--full/--short", help="A full sleep, or a shorter rest.")] = True,
         regained: Annotated[int, typer.Option("--regained", help="Effort a shorter rest gives (GM).")] = 0,
         campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False) -> None:
    """Regain effort: all of it after a full sleep (P19)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.bodies import Rest

    run_command(campaign, Rest(character, full, regained), by=by, as_json=as_json)


def stance(character: Annotated[str, typer.Argument()],
           which: Annotated[Optional[str], typer.Argument(help="active-defense or evade; omit to drop.")] = None,
           skill: Annotated[Optional[str], typer.Option("--skill", help="The skill an active defense adds.")]
           = None,
           campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False) -> None:
    """Take a defensive stance until the next turn (P35, P37)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.bodies import TakeStance

    run_command(campaign, TakeStance(character, which, skill), by=by, as_json=as_json)


def tension(tier: Annotated[str, typer.Argument(help="safe, risk or danger")],
            campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False) -> None:
    """Change the tier of tension, one at a time (P65)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.bodies import ChangeTension

    run_command(campaign, ChangeTension(tier), override_reason=override, as_json=as_json)


def trouble(purpose: Annotated[str, typer.Argument(help="impediment or routine-roll")],
            amount: Annotated[int, typer.Option("--amount")] = 1,
            against: Annotated[Optional[str], typer.Option("--against")] = None,
            text: Annotated[str, typer.Option("--text")] = "",
            campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False) -> None:
    """The narrator spends trouble on an impediment or a routine act made a roll (P28)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.fortune import SpendTrouble

    run_command(campaign, SpendTrouble(purpose, amount, against, text), override_reason=override, as_json=as_json)


def ruling(topic: Annotated[str, typer.Argument(help="complication, healing-rate, challenge, rest, death, other")],
           text: Annotated[str, typer.Argument()],
           character: Annotated[Optional[str], typer.Option("--character")] = None,
           campaign: CampaignOpt = None, as_json: JsonOpt = False) -> None:
    """Record a call the book leaves to the group or the narrator."""
    from yarnlog.rulesets.yarn_polyhedral.parts.bodies import RecordRuling

    run_command(campaign, RecordRuling(topic, text, character), as_json=as_json)


def narrator(narrator: Annotated[str, typer.Argument(help="Who at the table narrates the next sessions.")],
             campaign: CampaignOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False) -> None:
    """Pass the narrator's office between sessions, each narrator choosing the next (lines 798-802)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.characters import PassNarrator

    # The parameter is named for the console's completer, which offers the table's people for it.
    run_command(campaign, PassNarrator(narrator), override_reason=override, as_json=as_json)


def round_(campaign: CampaignOpt = None, as_json: JsonOpt = False) -> None:
    """Start a round: each player will have a turn, each choosing the next (line 217)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.rounds import StartRound

    run_command(campaign, StartRound(), as_json=as_json)


def turn(character: Annotated[str, typer.Argument(help="The character whose turn it is.")],
         attribute: Annotated[str, typer.Option("--attribute", help="The current attribute: its rank in steps.")],
         campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
         as_json: JsonOpt = False) -> None:
    """A character's turn, with its current attribute (P30)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.rounds import TakeTurn

    run_command(campaign, TakeTurn(character, attribute), by=by, override_reason=override, as_json=as_json)


def cooperate(character: Annotated[str, typer.Argument(help="The character joining the current turn.")],
              attribute: Annotated[str, typer.Option("--attribute", help="Its current attribute: its rank "
                                                                         "in steps.")],
              campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
              as_json: JsonOpt = False) -> None:
    """Join the current turn, cooperating, before its initiative: the group acts at its lowest (P34)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.rounds import JoinTurn

    run_command(campaign, JoinTurn(character, attribute), by=by, override_reason=override, as_json=as_json)


def step(character: Annotated[str, typer.Argument()],
         action: Annotated[str, typer.Argument(help="shift, punch, kick, grab, aim, perception...")],
         times: Annotated[int, typer.Option("--times")] = 1,
         campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None,
         as_json: JsonOpt = False) -> None:
    """Spend steps on a shift or an action (P31-P35)."""
    from yarnlog.rulesets.yarn_polyhedral.parts.rounds import SpendSteps

    run_command(campaign, SpendSteps(character, action, times), by=by, override_reason=override, as_json=as_json)


def _state(campaign, as_of, end_of_scene):
    from yarnlog.cli.context import campaign_state

    return campaign_state(campaign, as_of, end_of_scene)


def board(campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
          as_json: JsonOpt = False) -> None:
    """Each character's level, points, fortune, effort and injuries; the narrator's trouble."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.rulesets.yarn_polyhedral.reads import board as read

    def render(d: dict) -> None:
        rows = [(c["name"], c["level"], c["unspent"], c["fortune"], f"{c['effort']}/{c['effort_max']}",
                 c["total_severity"], c["penalty"]) for c in d["characters"]]
        turn = d["turn"]
        acting = "" if turn is None else f"; {', '.join(turn['group'])} acting" + (
            f" at initiative {turn['acts_at']}" if turn["acts_at"] is not None else "")
        print_table(f"Narrator {d['narrator']}, trouble {d['trouble']}, tension {d['tension']}{acting}",
                    ("character", "level", "points", "fortune", "effort", "severity", "penalty"), rows)

    emit(read(_state(campaign, as_of, end_of_scene)), as_json, render)


def ledger(campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
           as_json: JsonOpt = False) -> None:
    """Every movement of points, fortune and trouble, with its event, scene and rule."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.rulesets.yarn_polyhedral.reads import ledger as read

    def render(lines: list) -> None:
        print_table("Points, fortune and trouble", ("event", "scene", "who", "what", "change", "left", "rule"),
                    [(x["sequence"], x["scene"], x["holder"], f"{x['currency']}: {x['what']}",
                      f"{x['change']:+d}", x["balance"], x["rule"]) for x in lines])

    emit(read(_state(campaign, as_of, end_of_scene)), as_json, render)


def rolls(campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
          as_json: JsonOpt = False) -> None:
    """Every feat with its dice, kept dice, total, margin and exact prior odds."""
    from yarnlog.cli.output import emit, print_table

    state = _state(campaign, as_of, end_of_scene)
    data = [{"sequence": x.sequence, "scene": x.scene, **x.payload.to_data()} for x in state.rules.feats.rolled]

    def render(lines: list) -> None:
        print_table("Feats", ("event", "who", "dice", "faces", "total", "margin", "odds"),
                    [(x["sequence"], x["character"], " ".join(f"d{s}" for s in x["sizes"]),
                      ",".join(map(str, x["faces"])) + ("+" + ",".join(map(str, x["extra_faces"]))
                                                        if x["extra_faces"] else ""),
                      x["total"], x["margin"], x["odds"]) for x in lines])

    emit(data, as_json, render)


def sheet(
    name: Annotated[str, typer.Argument(help="A character.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, md or html (a printable page).")] = "text",
    templates: Annotated[Optional[str], typer.Option("--templates", envvar="YARNLOG_TEMPLATES",
                                                     help="A folder whose sheet.md.j2 or sheet.html.j2 "
                                                          "replaces the default.")] = None,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A character sheet as of any point: qualities, points, level, fortune, effort, injuries."""
    from yarnlog.cli.output import emit, print_table
    from yarnlog.core.referee import InvalidCommand, invalid
    from yarnlog.render import Templates
    from yarnlog.rulesets.yarn_polyhedral.reads import sheet as read

    invalid(fmt in ("text", "md", "html"), f"--format is one of text, md, html, not {fmt!r}")
    state = _state(campaign, as_of, end_of_scene)
    data = read(state, name)

    def render(d: dict) -> None:
        print_table(f"{d['name']}, level {d['level']}: {d['unspent']} points saved, fortune {d['fortune']}",
                    ("quality", "kind", "rank", "die", "points"),
                    [(q["name"], q["kind"], q["rank"], q["die"], q["points"]) for q in d["qualities"]])

    if as_json or fmt == "text":
        emit(data, as_json, render)
        return
    try:
        text = Templates(state.ruleset.templates if state.ruleset else None, templates).render(f"sheet.{fmt}.j2",
                                                                                           sheet=data)
    except FileNotFoundError as exc:
        raise InvalidCommand(str(exc)) from None
    typer.echo(text, nl=False)


def explain(event: Annotated[int, typer.Argument(help="The event's number.")],
            campaign: CampaignOpt = None, as_json: JsonOpt = False) -> None:
    """Why an event came out as it did: its dice, keep count, odds and the rules behind each figure."""
    from yarnlog.cli.context import open_journal, pick_campaign
    from yarnlog.cli.output import emit
    from yarnlog.core.referee import invalid
    from yarnlog.rulesets.yarn_polyhedral.reads import explain as read

    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    history = journal.history(cid, upto=event)
    invalid(bool(history) and history[-1].sequence == event, f"there is no event {event}")
    data = {"event": event, "type": history[-1].event_type, "lines": read(journal.state(cid, upto=event),
                                                                          history[-1])}
    def render(d: dict) -> None:
        import textwrap

        from yarnlog.cli.output import WIDTH, terminal_text

        for line in [f"Event {d['event']} ({d['type']}):", *d["lines"]]:
            typer.echo(textwrap.fill(terminal_text(line), width=WIDTH, subsequent_indent="  "))

    emit(data, as_json, render)


def recap(
    players: Annotated[bool, typer.Option("--players", help="Only what every player may see.")] = False,
    viewer: Annotated[Optional[str], typer.Option("--as", help="What player NAME may see.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="md or html.")] = "md",
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Write to this file.")] = None,
    templates: Annotated[Optional[str], typer.Option("--templates", envvar="YARNLOG_TEMPLATES")] = None,
    campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The recap, session by session in the book's words, and where things stand."""
    from pathlib import Path

    from yarnlog.cli.context import open_journal, pick_campaign, resolve_as_of
    from yarnlog.cli.output import json_text
    from yarnlog.core.referee import InvalidCommand, invalid
    from yarnlog.render import Templates
    from yarnlog.rulesets.yarn_polyhedral.reads import recap as read

    invalid(fmt in ("md", "html"), f"--format is md or html, not {fmt!r}")
    journal = open_journal()
    cid = pick_campaign(journal, campaign)
    upto = resolve_as_of(journal, cid, as_of, end_of_scene)
    state = journal.state(cid, upto=upto)
    if viewer is not None:  # a player sees the players' recap; the GM, everything
        invalid(viewer in (*state.table.players, state.table.gm), f"{viewer!r} is not at the table")
        players = players or viewer != state.table.gm
    data = read(journal.history(cid, upto=upto), state, players)
    if as_json:
        text = json_text(data) + "\n"
    else:
        try:
            text = Templates(state.ruleset.templates if state.ruleset else None, templates).render(
                f"recap.{fmt}.j2", recap=data)
        except FileNotFoundError as exc:
            raise InvalidCommand(str(exc)) from None
    if output is None:
        typer.echo(text, nl=False)
    else:
        Path(output).write_text(text, encoding="utf-8")


def register(app: typer.Typer) -> None:
    app.add_typer(character_app, name="character")
    for name, verb in (("award", award), ("raise", _change("raised")), ("pay-down", _change("paid-down")),
                       ("attain", attain), ("train", train), ("flashback", flashback), ("feat", feat),
                       ("attack", attack), ("resist", resist), ("heal", heal), ("rest", rest), ("stance", stance),
                       ("tension", tension), ("trouble", trouble), ("ruling", ruling), ("narrator", narrator),
                       ("round", round_),
                       ("turn", turn), ("cooperate", cooperate), ("step", step), ("board", board),
                       ("ledger", ledger), ("rolls", rolls), ("sheet", sheet), ("explain", explain),
                       ("recap", recap)):
        app.command(name)(verb)
