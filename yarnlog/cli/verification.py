"""``verify``: the hash chain, the payloads and the rules checked, and with ``--snapshots`` the caches.
"""

from pathlib import Path
from typing import Annotated, Optional

import typer

from yarnlog.cli.context import open_journal, pick_campaign
from yarnlog.cli.options import CampaignOpt, JsonOpt
from yarnlog.cli.output import console, emit, terminal_text, working
from yarnlog.cli.root import EXIT_CODES, app


@app.command()
def verify(
    campaign: CampaignOpt = None,
    snapshots: Annotated[bool, typer.Option("--snapshots", help="Also replay fully and compare every stored "
                                            "snapshot and view with the replay at its event.")] = False,
    digest: Annotated[Optional[str], typer.Option("--digest", help="A digest kept from earlier ('yarnlog digest'): "
                                                  "the journal must still hold exactly that history.")] = None,
    key: Annotated[Optional[Path], typer.Option("--key", help="With --digest: the GM's public key file; the "
                                                "digest must be signed with it.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check the hash chain, the payloads and the rules, and that every cached snapshot and view a read
    would use says what a full replay says; exit 1 on any fault. --snapshots checks every cached row,
    each listed. With --digest,
    also check that the journal extends exactly the history that digest pins (nothing cut or changed)."""
    from yarnlog.cli.evidence import check_digest_option
    from yarnlog.core.referee import invalid

    pinned = check_digest_option(digest, key)
    journal = open_journal()
    cid = pick_campaign(journal, campaign or (pinned.campaign_id if pinned else None))
    # A campaign that is not there is a mistyped id (exit 2), not a journal with faults (exit 1).
    invalid(cid in journal.campaigns(), f"no campaign {cid!r} in this journal")
    with working(f"verifying {cid}: hash chain, payloads, rules"):
        report = journal.verify(cid, caches=not snapshots)  # --snapshots checks each one below
    if pinned is not None and report.events:  # (no campaign at all is already the one fault)
        from yarnlog.cli.evidence import digest_faults

        report.faults.extend(digest_faults(journal, cid, pinned, key))
    if snapshots:
        with working(f"verifying {cid}: snapshots against a full replay"):
            checks = journal.check_snapshots(cid)
        _verify_snapshots(report, checks, as_json)
        return

    def render(d):
        from rich.text import Text

        out = console()
        if d["ok"]:
            out.print(Text.assemble(("ok", "green"), terminal_text(f": {cid}, {d['events']} events, "
                                                                  f"chain head {d['head']}")))
            if pinned is not None:
                out.print(f"It extends the digest of event {pinned.size}"
                          f"{', signed with that key' if key else ''}: nothing changed.", markup=False, emoji=False)
            return
        first = d["faults"][0]
        err = console(stderr=True)
        err.print(Text.assemble(("FAULT", "red"), terminal_text(f" at event {first['sequence']} "
                                                                f"({first['event_type']}): {first['problem']}")))
        for fault in d["faults"][1:]:
            err.print(f"  also event {fault['sequence']} ({fault['event_type']}): {fault['problem']}")
        err.print(f"{len(d['faults'])} fault(s) in {d['events']} events")

    data = report.to_data()
    if pinned is not None:
        data["digest"] = pinned.line()
    emit(data, as_json, render)
    if not report.ok:
        raise typer.Exit(EXIT_CODES["faults"])


def _verify_snapshots(report, checks, as_json: bool) -> None:
    """``verify --snapshots``: the report, each snapshot's check, and exit 1 if either found a fault."""
    data = {**report.to_data(), "snapshots": [{**c._asdict(), "ok": c.ok} for c in checks]}
    data["ok"] = report.ok and all(c.ok for c in checks)

    def render(d):
        out, err = console(), console(stderr=True)
        for fault in d["faults"]:
            err.print(f"FAULT at event {fault['sequence']} ({fault['event_type']}): {fault['problem']}", markup=False)
        for check in d["snapshots"]:
            line = f"snapshot {check['kind']} at event {check['sequence']}: {check['status']}" + \
                (f" ({check['detail']})" if check["detail"] else "")
            (out if check["ok"] else err).print(line, markup=False)
        (out if d["ok"] else err).print(f"{'ok' if d['ok'] else 'FAULTS'}: {d['campaign_id']}, {d['events']} events, "
                                        f"{len(d['snapshots'])} snapshot(s) checked", markup=False)

    emit(data, as_json, render)
    if not data["ok"]:
        raise typer.Exit(EXIT_CODES["faults"])
