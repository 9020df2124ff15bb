"""GM rulings at the command line, the same verbs in Yarn and DramaSystem (both build the dramatic
core's commands): ``ruling tokens`` moves drama tokens or bennies by the GM's ruling, with its reason
(``TransferTokens``: the ledger shows it as "GM ruling" and the reason); ``ruling note`` records a
ruling that moves nothing, tied to the rule it settles (``RecordRuling``).
"""

from typing import Annotated

import typer

from yarnlog.cli.context import run_command
from yarnlog.cli.options import ByOpt, CampaignOpt, JsonOpt, OverrideOpt

ruling_app = typer.Typer(help="GM rulings: tokens moved by ruling, or a ruling on a rule that moves nothing.",
                         no_args_is_help=True)


@ruling_app.command("tokens")
def ruling_tokens(
    source: Annotated[str, typer.Option("--from", help="Who pays: a participant, or kitty.")],
    destination: Annotated[str, typer.Option("--to", help="Who receives: a participant, or kitty.")],
    amount: Annotated[int, typer.Option("--amount", help="How many (at least 1).")],
    reason: Annotated[str, typer.Option("--reason", help="Why the GM rules so (required).")],
    currency: Annotated[str, typer.Option("--currency", help="drama (tokens) or bennie.")] = "drama",
    campaign: CampaignOpt = None, by: ByOpt = None, override: OverrideOpt = None, as_json: JsonOpt = False,
) -> None:
    """Move drama tokens or bennies by the GM's ruling; refused when the payer holds too few, unless
    --override gives the GM's reason for taking an account below zero."""
    from yarnlog.rulesets.scenes_and_tokens.parts.economy import TransferTokens

    run_command(campaign, TransferTokens(source=source.strip(), destination=destination.strip(), amount=amount,
                                         reason=reason, currency=currency.strip().lower()),  # type: ignore[arg-type]
                by=by, override_reason=override, as_json=as_json)


@ruling_app.command("note")
def ruling_note(
    ruling: Annotated[str, typer.Argument(help="What the GM rules.")],
    rule: Annotated[str, typer.Option("--rule", help="The rule or reading it settles: DS5, 'How I Do It'...")],
    campaign: CampaignOpt = None, by: ByOpt = None, as_json: JsonOpt = False,
) -> None:
    """Record a GM's ruling on a rule the book leaves to her, moving nothing."""
    from yarnlog.rulesets.scenes_and_tokens.parts.rulings import RecordRuling

    run_command(campaign, RecordRuling(rule=rule, ruling=ruling), by=by, as_json=as_json)


def register(app: typer.Typer) -> None:
    app.add_typer(ruling_app, name="ruling")
