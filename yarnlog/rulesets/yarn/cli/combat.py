"""The combat commands of the ``yarnlog`` CLI: fights, initiative, attacks, gestalt rolls and wounds.

Only typer and the shared :mod:`yarnlog.cli` modules are imported at start-up; the rules load inside commands.
Dice are entered as faces (``6,5,3,2``) or left out for the tool to roll them. Rolls of gestalt
combat and initiative are written ``NAME[@TRAIT][=DICE[+BONUS][-PENALTY]][:FACES[|TOP-OFF]]``:
``Iris@Tough:6,5,2`` (the sheet's dice), ``Thugs=6`` (six dice, rolled by the tool), ``Ana=3+1:6,5,4,1``.
"""

import re
from typing import Annotated, Any

import typer

from yarnlog.cli.context import answer, campaign_state, execute_command, run_command
from yarnlog.cli.options import AsOfOpt, ByOpt, CampaignOpt, EndOfSceneOpt, JsonOpt, Many, OverrideOpt, parse_faces
from yarnlog.cli.output import console, emit

Faces = Annotated[str | None, typer.Option(help="Faces as rolled, e.g. 6,5,3,2 (default: the tool rolls).")]

_ROLL = re.compile(
    r"^(?P<name>[^@=:]+?)(?:@(?P<trait>[^=:]+?))?"
    r"(?:=(?P<dice>\d+)(?:\+(?P<bonus>\d+))?(?:-(?P<penalty>\d+))?)?"
    r"(?::(?P<faces>[\d,\s]*)(?:\|(?P<top_off>[\d,\s]*))?)?$"
)


def _names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def _roll(text: str):
    from yarnlog.core.referee import InvalidCommand
    from yarnlog.rulesets.yarn.parts.combat.part import RollInput

    match = _ROLL.match(text.strip())
    if match is None:
        raise InvalidCommand(f"a roll is NAME[@TRAIT][=DICE[+BONUS][-PENALTY]][:FACES], not {text!r}")
    g = match.groupdict()
    return RollInput(
        roller=g["name"].strip(),
        trait=g["trait"] and g["trait"].strip(),
        dice=int(g["dice"]) if g["dice"] else None,
        faces=parse_faces(g["faces"]),
        top_off=parse_faces(g["top_off"]) or (),
        bonus=int(g["bonus"] or 0),
        penalty=int(g["penalty"] or 0),
    )


def _faces(text: str) -> tuple[int, ...]:
    """Dice faces as typed (``parse_faces`` gives None only when no text is given)."""
    return parse_faces(text) or ()


def _fighter(text: str):
    from yarnlog.core.referee import InvalidCommand
    from yarnlog.rulesets.yarn.parts.combat.part import Fighter

    name, _, hit_points = text.partition("=")
    if hit_points and not hit_points.strip().isdigit():
        raise InvalidCommand(f"a combatant is NAME or NAME=HIT_POINTS, not {text!r}")
    return Fighter(name.strip(), int(hit_points) if hit_points else None)


def _choice(enum, text: str | None, what: str):
    """A member of ``enum`` by its value, spelled with hyphens or spaces."""
    from yarnlog.core.referee import InvalidCommand

    if text is None:
        return None
    key = " ".join(text.replace("-", " ").casefold().split())
    for member in enum:
        if " ".join(str(member.value).replace("-", " ").casefold().split()) == key:
            return member
    raise InvalidCommand(f"{what} is one of {', '.join(str(m.value) for m in enum)}, not {text!r}")


def _run(campaign, command, by, override_reason, as_json, visibility: str = "everyone") -> list:
    return run_command(campaign, command, by=by, visibility=visibility, override_reason=override_reason,
                       as_json=as_json)


def register(app: typer.Typer) -> None:
    """Add the combat commands to ``app``."""
    fight_app = typer.Typer(help="Start, run and end fights (gestalt or detailed combat).", no_args_is_help=True)
    death_app = typer.Typer(help="A character at the point of death.", no_args_is_help=True)
    app.add_typer(fight_app, name="fight")
    app.add_typer(death_app, name="death")

    @fight_app.command("start")
    def fight_start(
        combatant: Annotated[
            list[str], typer.Option("--combatant", help="NAME (a PC or registered) or NAME=HIT_POINTS.")
        ],
        detailed: Annotated[
            bool, typer.Option("--detailed/--gestalt", help="Detailed combat (default: gestalt).")
        ] = False,
        campaign: CampaignOpt = None,
        by: ByOpt = None,
        override: OverrideOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Start a fight: gestalt (one roll for the whole fight) or detailed (rounds and attacks)."""
        from yarnlog.rulesets.yarn.parts.combat.part import StartCombat

        command = StartCombat(tuple(_fighter(c) for c in combatant), "detailed" if detailed else "gestalt")
        _run(campaign, command, by, override, as_json)

    @fight_app.command("join")
    def fight_join(
        combatant: Annotated[list[str], typer.Option("--combatant", help="NAME or NAME=HIT_POINTS.")],
        campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """Bring more combatants into the fight in play."""
        from yarnlog.rulesets.yarn.parts.combat.part import JoinCombat

        _run(campaign, JoinCombat(tuple(_fighter(c) for c in combatant)), by, None, as_json)

    @fight_app.command("leave")
    def fight_leave(
        name: str, reason: Annotated[str, typer.Option("--reason")] = "",
        campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """A combatant leaves the fight (flees, is carried off...)."""
        from yarnlog.rulesets.yarn.parts.combat.part import LeaveCombat

        _run(campaign, LeaveCombat(name, reason), by, None, as_json)

    @fight_app.command("round")
    def fight_round(campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False) -> None:
        """Start the next round of a detailed fight."""
        from yarnlog.rulesets.yarn.parts.combat.part import NextRound

        _run(campaign, NextRound(), by, None, as_json)

    @fight_app.command("end")
    def fight_end(
        summary: Annotated[str, typer.Option("--summary", help="How it ended.")] = "",
        campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """End the fight in play."""
        from yarnlog.rulesets.yarn.parts.combat.part import EndCombat

        _run(campaign, EndCombat(summary), by, None, as_json)

    @fight_app.command("status")
    def fight_status(
        gm: Annotated[bool, typer.Option("--gm", help="Show the GMCs' secret gestalt total too.")] = False,
        campaign: CampaignOpt = None, as_of: AsOfOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """The fight in play: mode, round, order of action, combatants' hit points."""
        from yarnlog.rulesets.yarn.parts.combat.part import gestalt_outcome
        from yarnlog.rulesets.yarn.parts.combat.wounds import hit_points

        state = campaign_state(campaign, as_of)
        combat = state.rules.combat.in_play
        data: dict[str, Any] = {"in_play": combat is not None}
        if combat is not None:
            data |= {"number": combat.number, "mode": combat.mode, "round": combat.round, "order": list(combat.order),
                     "combatants": {n: hit_points(state.rules, n).current for n in combat.combatants},
                     "player_rolls": dict(combat.player_rolls)}
            outcome = gestalt_outcome(state)
            if gm and outcome is not None:
                data["gestalt"] = {"players": outcome.players_total, "gmcs": outcome.gmcs_total,
                                   "winner": str(outcome.winner) if outcome.winner else None}

        def render(d: dict) -> None:
            if not d["in_play"]:
                console().print("no fight in play")
                return
            console().print(f"fight {d['number']} ({d['mode']}), round {d['round']}")
            if d["order"]:
                console().print("order: " + ", ".join(d["order"]))
            for name, hp in d["combatants"].items():
                console().print(f"  {name}: {hp} hit points")
            if "gestalt" in d:
                g = d["gestalt"]
                console().print(f"gestalt: players {g['players']} vs GMCs {g['gmcs']}: {g['winner'] or 'a tie'}")

        emit(data, as_json, render)

    @app.command("combatant")
    def combatant(
        name: str,
        hit_points: Annotated[int, typer.Option("--hit-points", "--hp", help="The combatant's hit points.")],
        description: Annotated[str, typer.Option("--description")] = "",
        campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """Register a character without a sheet (a GMC, a mook, a supporting character) to fight."""
        from yarnlog.rulesets.yarn.parts.combat.part import RegisterCombatant

        _run(campaign, RegisterCombatant(name, hit_points, description), by, None, as_json)

    @app.command("armor")
    def armor(
        character: str,
        armor: Annotated[
            list[str] | None, typer.Argument(help="Armor worn, e.g. plate-mail leathers (none: takes it off).")
        ] = None,
        campaign: CampaignOpt = None,
        by: ByOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Record the armor a character wears."""
        from yarnlog.rulesets.yarn.parts.combat.part import WearArmor

        _run(campaign, WearArmor(character, tuple(armor or ())), by, None, as_json)

    @app.command("initiative")
    def initiative(
        roll: Annotated[Many, typer.Argument(help="NAME[@TRAIT][=DICE][:FACES]; GMCs=DICE rolls for all GMCs.")] = None,
        tie: Annotated[str | None, typer.Option("--tie", help="The GM's order of tied rolls: A,B.")] = None,
        seating: Annotated[str | None, typer.Option("--seating", help="Players around the table: A,B,C.")] = None,
        gm_first: Annotated[bool, typer.Option("--gm-first/--gm-last", help="With --seating.")] = False,
        campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """Set the order of action: initiative rolls, or the seating order around the table."""
        from yarnlog.core.referee import InvalidCommand
        from yarnlog.rulesets.yarn.parts.combat.part import RollInitiative, SeatingOrder

        command: SeatingOrder | RollInitiative
        if seating is not None:
            if roll:
                raise InvalidCommand("give initiative rolls or --seating, not both")
            command = SeatingOrder(tuple(_names(seating)), gm_first)
        else:
            command = RollInitiative(tuple(_roll(r) for r in roll or ()), tuple(_names(tie)))
        recorded = execute_command(campaign, command, by=by, override_reason=None)
        answer(recorded, as_json, lambda: console().print("order: " + ", ".join(recorded[-1].payload.order),
                                                          markup=False))

    @app.command("gestalt")
    def gestalt(
        roll: Annotated[list[str], typer.Argument(help="NAME[@TRAIT][=DICE[+B][-P]][:FACES] for each roll.")],
        gm: Annotated[bool, typer.Option("--gm", help="The GMCs' rolls: recorded for the GM's eyes only.")] = False,
        campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """Gestalt combat: the players' rolls, or (--gm) the GMCs' secret total."""
        from yarnlog.rulesets.yarn.parts.combat.part import RollGestalt, gestalt_outcome
        from yarnlog.rulesets.yarn.rules.combat import Side

        command = RollGestalt(Side.GMCS if gm else Side.PLAYERS, tuple(_roll(r) for r in roll))
        recorded = execute_command(
            campaign, command, by=by, override_reason=override, visibility="gm" if gm else "everyone"
        )
        payload = recorded[-1].payload
        outcome = gestalt_outcome(campaign_state(campaign)) if gm else None

        def render() -> None:
            for r in payload.rolls:
                console().print(f"{r.roller}: {r.dice.describe()}", markup=False)
            console().print(f"{payload.side} total: {payload.total}")
            if outcome is not None:
                console().print(f"players {outcome.players_total} vs GMCs {outcome.gmcs_total}: "
                                f"{outcome.winner or 'a tie, the GM adjudicates'}")

        answer(recorded, as_json, render)

    @app.command("attack")
    def attack(
        attacker: str,
        defender: str,
        weapon: Annotated[str, typer.Option("--weapon", help="knife, sword, revolver, light-handgun, taser, ...")],
        caliber: Annotated[
            str | None, typer.Option("--caliber", help="For a firearm kind: light, medium, large, heavy.")
        ] = None,
        firearm: Annotated[
            str | None, typer.Option("--firearm", help="How a gun fires: revolver, automatic-pistol, ...")
        ] = None,
        range_class: Annotated[
            str | None, typer.Option("--range-class", help="Row of the Weapon Ranges table.")
        ] = None,
        ammo: Annotated[str, typer.Option("--ammo", help="standard, armor-piercing, hollow-point")] = "standard",
        attack_trait: Annotated[str | None, typer.Option("--attack-trait")] = None,
        attack_dice: Annotated[int | None, typer.Option("--attack-dice", help="The GM's dice for a GMC.")] = None,
        attack_combat_trait: Annotated[
            bool, typer.Option("--attack-combat-trait", help="A GMC's trait is combat-oriented.")
        ] = False,
        attack_faces: Faces = None,
        attack_top_off: Annotated[str | None, typer.Option("--attack-top-off")] = None,
        defense_trait: Annotated[
            str | None, typer.Option("--defense-trait", help="Melee defense, or the dodge trait.")
        ] = None,
        defense_dice: Annotated[int | None, typer.Option("--defense-dice")] = None,
        defense_combat_trait: Annotated[bool, typer.Option("--defense-combat-trait")] = False,
        defense_faces: Faces = None,
        defense_top_off: Annotated[str | None, typer.Option("--defense-top-off")] = None,
        distance: Annotated[
            float | None, typer.Option("--distance", help="Meters to the target (a ranged attack).")
        ] = None,
        distance_dice: Annotated[int | None, typer.Option("--distance-dice", help="The GM's distance dice.")] = None,
        cover: Annotated[int, typer.Option("--cover")] = 0,
        obscured: Annotated[int, typer.Option("--obscured", help="Darkness, fog, etc.: 1 or 2.")] = 0,
        target_moving: Annotated[bool, typer.Option("--target-moving")] = False,
        attacker_moving: Annotated[bool, typer.Option("--attacker-moving")] = False,
        dodge: Annotated[bool, typer.Option("--dodge")] = False,
        dodge_dice: Annotated[int | None, typer.Option("--dodge-dice", help="Agility dice of a GMC.")] = None,
        clumsy: Annotated[bool, typer.Option("--clumsy")] = False,
        half_dice: Annotated[int, typer.Option("--half-dice")] = 0,
        fire: Annotated[str | None, typer.Option("--fire", help="burst, full-auto, spread")] = None,
        clip: Annotated[int | None, typer.Option("--clip", help="Rounds in the clip.")] = None,
        line_of_fire: Annotated[
            str | None, typer.Option("--line-of-fire", help="A spread: everyone in the sweep.")
        ] = None,
        first: Annotated[str | None, typer.Option("--first")] = None,
        last: Annotated[str | None, typer.Option("--last")] = None,
        bullets: Annotated[int, typer.Option("--bullets")] = 0,
        advantage: Annotated[
            Many,
            typer.Option("--advantage", help="surprise, better-weaponry, better-position, ganging-up, psychological"),
        ] = None,
        defense_advantage: Annotated[Many, typer.Option("--defense-advantage")] = None,
        surprise_extra: Annotated[
            int, typer.Option("--surprise-extra", help="More bonus dice for total surprise.")
        ] = 0,
        gang: Annotated[str | None, typer.Option("--gang", help="Ganging up: all attackers on the defender.")] = None,
        chosen: Annotated[
            str | None, typer.Option("--chosen", help="Ganging up: who the defender gives the bonus.")
        ] = None,
        fighting_dice: Annotated[
            int | None, typer.Option("--fighting-dice", help="Ganging up: the defender's.")
        ] = None,
        psychological_round: Annotated[int | None, typer.Option("--psychological-round")] = None,
        whole_combat: Annotated[bool, typer.Option("--whole-combat")] = False,
        bonus: Annotated[Many, typer.Option("--bonus", help="A GM bonus die on the attack, with why.")] = None,
        penalty: Annotated[Many, typer.Option("--penalty", help="A GM penalty die on the attack, with why.")] = None,
        defense_bonus: Annotated[Many, typer.Option("--defense-bonus")] = None,
        defense_penalty: Annotated[Many, typer.Option("--defense-penalty")] = None,
        predictable: Annotated[
            bool, typer.Option("--predictable", help="The GM rules it a predictable attack.")
        ] = False,
        desperate: Annotated[
            bool, typer.Option("--desperate", help="The defender gives up attacking this round.")
        ] = False,
        armor: Annotated[Many, typer.Option("--armor", help="The defender's armor (default: as worn).")] = None,
        armor_faces: Annotated[str | None, typer.Option("--armor-faces", help="Regular armor dice.")] = None,
        bullet_proof_faces: Annotated[str | None, typer.Option("--bullet-proof-faces")] = None,
        special_effect: Annotated[str | None, typer.Option("--special-effect", help="Tackle, disarm, ...")] = None,
        margin: Annotated[
            int | None, typer.Option("--margin", help="The margin the GM asks of the special effect.")
        ] = None,
        alternate_damage: Annotated[bool, typer.Option("--alternate-damage")] = False,
        damage_faces: Annotated[str | None, typer.Option("--damage-faces")] = None,
        serious_wound: Annotated[str | None, typer.Option("--serious-wound", help="The GM's serious wound.")] = None,
        serious_kind: Annotated[str, typer.Option("--serious-kind", help="mis-heals or leads to death")] = "mis-heals",
        daily_loss: Annotated[int, typer.Option("--daily-loss")] = 0,
        odds: Annotated[
            bool, typer.Option("--odds", help="Only show the exact chance to hit; record nothing.")
        ] = False,
        campaign: CampaignOpt = None,
        by: ByOpt = None,
        override: OverrideOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """One attack of a detailed fight: the rolls, the armor, and the damage, step by step."""
        from yarnlog.core.referee import InvalidCommand
        from yarnlog.rulesets.yarn.parts.combat import attacks
        from yarnlog.rulesets.yarn.parts.combat import fight_records as records
        from yarnlog.rulesets.yarn.parts.combat import part as f
        from yarnlog.rulesets.yarn.parts.combat.wounds import SeriousWoundFacts
        from yarnlog.rulesets.yarn.rules import arsenal
        from yarnlog.rulesets.yarn.rules.combat import Advantage, RangeClass
        from yarnlog.rulesets.yarn.rules.damage import Ammunition, Firearm, FireMode, SeriousWoundKind

        profile = arsenal.weapon_profile(weapon, caliber)
        modes = {"burst": FireMode.THREE_ROUND_BURST, "full-auto": FireMode.FULL_AUTO_ONE_TARGET,
                 "spread": FireMode.FULL_AUTO_SPREAD}
        if fire is not None and fire not in modes:
            raise InvalidCommand(f"--fire is burst, full-auto or spread, not {fire!r}")

        def claims(names: Many, roll: str) -> list:
            out = []
            for name in names or ():
                kind = _choice(Advantage, {"better-weaponry": "better weaponry", "better-position": "better position",
                                           "surprise": "attacking with surprise", "ganging-up": "ganging up",
                                           "psychological": "psychological advantage"}.get(name, name), "an advantage")
                out.append(records.AdvantageClaim(
                    advantage=kind, roll=roll, extra_dice=surprise_extra if kind is Advantage.SURPRISE else 0,
                    attackers=_names(gang), chosen_by_defender=_names(chosen), defender_fighting_dice=fighting_dice,
                    gained_round=psychological_round, whole_combat=whole_combat))
            return out

        gm_dice = [records.GMDie(roll=roll, kind=kind, why=why) for roll, kind, whys in (
            ("attack", "bonus", bonus), ("attack", "penalty", penalty),
            ("defense", "bonus", defense_bonus), ("defense", "penalty", defense_penalty)) for why in whys or ()]
        ranged = None
        if distance is not None or distance_dice is not None:
            ranged = records.Ranged(distance_m=distance, gm_distance_dice=distance_dice, cover=cover, obscured=obscured,
                              target_moving=target_moving, attacker_moving=attacker_moving, dodging=dodge,
                              agility_dice=dodge_dice, clumsy=clumsy, half_dice=half_dice)
        spread = None
        if line_of_fire is not None:
            spread = records.Spread(
                line_of_fire=_names(line_of_fire), first=first or "", last=last or "", bullets_fired=bullets
            )
        wound = None
        if serious_wound is not None:
            wound = SeriousWoundFacts(
                description=serious_wound,
                kind=_choice(SeriousWoundKind, serious_kind, "a serious wound"),
                daily_loss=daily_loss,
            )
        declared = records.declaration(
            attacker=attacker,
            defender=defender,
            weapon=profile.weapon,
            firearm=_choice(Firearm, firearm, "a firearm") or profile.firearm,
            range_class=_choice(RangeClass, range_class, "a range class") or profile.range_class,
            ammunition=_choice(Ammunition, ammo, "ammunition"),
            attack_trait=attack_trait,
            attack_dice=attack_dice,
            attack_combat_trait=attack_combat_trait,
            defense_trait=defense_trait,
            defense_dice=defense_dice,
            defense_combat_trait=defense_combat_trait,
            ranged=ranged,
            fire_mode=modes.get(fire) if fire else None,
            rounds_in_clip=clip,
            spread=spread,
            advantages=claims(advantage, "attack") + claims(defense_advantage, "defense"),
            gm_dice=gm_dice,
            predictable=predictable,
            desperate_defense=desperate,
            defender_armor=armor,
            special_effect=special_effect,
            sufficient_margin=margin,
            alternate_damage=alternate_damage,
            serious_wound=wound,
        )
        if odds:
            _show_odds(attacks.attack_odds(campaign_state(campaign), declared), as_json)
            return
        given = {"attack": attack_faces, "defense": defense_faces, "regular_armor": armor_faces,
                 "bullet_proof_armor": bullet_proof_faces, "damage": damage_faces}
        faces = {name: _faces(text) for name, text in given.items() if text is not None}
        top_off = {
            name: _faces(text) for name, text in (("attack", attack_top_off), ("defense", defense_top_off)) if text
        }
        recorded = execute_command(campaign, f.Attack(declared, faces, top_off), by=by, override_reason=override)
        answer(recorded, as_json, lambda: _show_attack(recorded[-1].payload))

    @app.command("damage")
    def damage(
        character: str,
        reason: Annotated[str, typer.Option("--reason", help="What hurt the character.")],
        points: Annotated[int | None, typer.Option("--points")] = None,
        dice: Annotated[int | None, typer.Option("--dice", help="Dice the GM rolls for damage.")] = None,
        faces: Faces = None,
        taser: Annotated[bool, typer.Option("--temporary", help="Temporary (taser) damage.")] = False,
        campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """The GM deals damage outside an attack roll (gestalt combat, a fall, a blast)."""
        from yarnlog.rulesets.yarn.parts.combat.wounds import TakeDamage

        _run(campaign, TakeDamage(character, reason, points, dice, parse_faces(faces), taser), by, override, as_json)

    @app.command("recover")
    def recover(
        character: str,
        fraction: Annotated[str, typer.Option("--fraction", help="Of the loss recovered (GM's option).")] = "1/2",
        reason: Annotated[str, typer.Option("--reason")] = "",
        campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """Hit point recovery after a fight: halfway back to the last recovered level, rounded up."""
        from fractions import Fraction

        from yarnlog.core.referee import InvalidCommand
        from yarnlog.rulesets.yarn.parts.combat.wounds import Recover

        try:
            share = Fraction(fraction)
        except (ValueError, ZeroDivisionError):
            raise InvalidCommand(f"a fraction is like 1/2 or 2/3, not {fraction!r}") from None
        _run(campaign, Recover(character, share, reason), by, None, as_json)

    @app.command("heal")
    def heal(
        character: str,
        days: Annotated[int, typer.Option("--days")],
        activity: Annotated[str, typer.Option("--activity", help="active, rest, medical-care")],
        condition: Annotated[
            str | None, typer.Option("--condition", help="mobile, bed-ridden or critical (GM's option).")
        ] = None,
        gm_loss: Annotated[int, typer.Option("--gm-loss", help="Hit points lost a day, at the GM's option.")] = 0,
        campaign: CampaignOpt = None,
        by: ByOpt = None,
        override: OverrideOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Long-term healing for one or more in-game days (Long-Term Healing table)."""
        from yarnlog.rulesets.yarn.parts.combat.wounds import Heal
        from yarnlog.rulesets.yarn.rules.healing import Activity, Condition

        command = Heal(character, days, _choice(Activity, activity, "an activity"),
                       _choice(Condition, condition, "a condition"), gm_loss)
        _run(campaign, command, by, override, as_json)

    @app.command("wounds")
    def wounds(
        character: Annotated[str | None, typer.Argument()] = None,
        campaign: CampaignOpt = None, as_of: AsOfOpt = None, end_of_scene: EndOfSceneOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Hit points of every PC and combatant (or of one), at any point of the journal."""
        from yarnlog.rulesets.yarn.parts.combat.wound_reports import wounds_report

        rows = [row.to_data() for row in wounds_report(campaign_state(campaign, as_of, end_of_scene), character)]

        def render(data: list[dict]) -> None:
            from rich.table import Table

            table = Table(title="Wounds")
            for col in ("character", "hit points", "taser", "last recovered", "status", "penalty dice", "serious"):
                table.add_column(col)
            for r in data:
                table.add_row(r["character"], f"{r['current']}/{r['maximum']}", str(r["temporary"] or ""),
                              str(r["last_recovered"]), r["status"], str(r["penalty_dice"] or ""),
                              "; ".join(r["serious_wounds"]))
            console().print(table)

        emit(rows, as_json, render)

    @death_app.command("face")
    def death_face(
        character: str,
        reason_to_live: Annotated[str | None, typer.Option("--reason-to-live", help="Attempt to recover.")] = None,
        gm_accepts: Annotated[bool, typer.Option("--gm-accepts", help="The GM finds the reason sufficient.")] = False,
        medical_attention: Annotated[bool, typer.Option("--medical-attention")] = False,
        campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """At the point of death: recover (with a reason to live) or let go (no --reason-to-live)."""
        from yarnlog.rulesets.yarn.parts.combat.wounds import FaceDeath

        command = FaceDeath(character, reason_to_live is not None, reason_to_live or "", gm_accepts, medical_attention)
        _run(campaign, command, by, override, as_json)

    @death_app.command("spend")
    def death_spend(
        character: str,
        option: Annotated[str, typer.Argument(help="last-words, vanish or sacrifice")],
        campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
    ) -> None:
        """A player spends a drama token on their dead character's last words, vanishing or sacrifice."""
        from yarnlog.core.referee import InvalidCommand
        from yarnlog.rulesets.yarn.parts.combat.wounds import SpendDeathOption
        from yarnlog.rulesets.yarn.rules.hit_points import DeathOption

        options = {"last-words": DeathOption.LAST_WORDS, "vanish": DeathOption.VANISH,
                   "sacrifice": DeathOption.HEROIC_SACRIFICE}
        if option not in options:
            raise InvalidCommand(f"a death option is last-words, vanish or sacrifice, not {option!r}")
        _run(campaign, SpendDeathOption(character, options[option]), by, override, as_json)


def _show_attack(p) -> None:
    d = p.declared
    out = console()
    out.print(
        f"{d.attacker} attacks {d.defender} with a {d.weapon} (fight {p.combat}, round {p.round})"
    )
    for entry in p.entries:
        dice = ", ".join(
            f"{n} {w}" for n, w in ((entry.dice, "dice"), (entry.bonus, "bonus"), (entry.penalty, "penalty")) if n
        )
        out.print(f"  {entry.roll}: {dice} — {entry.why} ({entry.chapter})")
    out.print(f"attack {p.attack.describe()}  vs  defense {p.defense.describe()}: {p.outcome.value}")
    for what, facts in (("regular armor", p.regular_armor), ("bullet-proof armor", p.bullet_proof_armor),
                        ("damage", p.damage_dice)):
        if facts is not None:
            out.print(f"{what} {facts.describe()}")
    for step in p.steps:
        out.print(f"  {step.step} = {step.value}")
    if p.steps:
        kind = " temporary (taser)" if p.temporary else ""
        out.print(
            f"{p.damage}{kind} damage: {d.defender} {p.hit_points_before} -> {p.hit_points_after} hit points"
        )
    if p.usually_serious:
        out.print("20 or more in one blow: usually a serious wound (the GM decides)")


def _show_odds(chances, as_json: bool) -> None:
    from yarnlog.rulesets.yarn.rules.odds import percent

    data = {"hits": str(chances.beats), "misses": str(chances.equals + chances.fails),
            "percent": percent(chances.beats)}
    emit(data, as_json, lambda d: console().print(f"chance to hit: {d['percent']} ({d['hits']})"))
