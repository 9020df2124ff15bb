"""The commands that let people outside the journal check it: digests, consistency proofs, the GM's
signing key, and the database's least-privilege writer role.

Registered on the command line by :mod:`yarnlog.cli.commands`; the storage stack and PyNaCl are
imported inside the commands, so start-up stays light.
"""

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from yarnlog.cli.context import open_journal, pick_campaign
from yarnlog.cli.options import CampaignOpt, JsonOpt
from yarnlog.cli.output import console, emit, working

if TYPE_CHECKING:
    from yarnlog.app.journal import Journal
    from yarnlog.core.decide import Fault
    from yarnlog.core.digest import Digest

#: The sentence printed under a digest: where it goes and what checks it.
PASTE_HINT = "Paste it where the players keep it; 'yarnlog verify --digest' checks it later."

db_app = typer.Typer(help="Set up the journal's database (PostgreSQL roles).", no_args_is_help=True)


def check_digest_option(text: str | None, key: Path | None) -> "Digest | None":
    """``--digest``'s value read as a digest (``--key`` without it is an error)."""
    from yarnlog.core.digest import parse_digest
    from yarnlog.core.referee import InvalidCommand

    if text is None:
        if key is not None:
            raise InvalidCommand("--key checks the signature of a --digest: give the digest too")
        return None
    return parse_digest(text)


def digest_faults(journal: "Journal", campaign_id: str, digest: "Digest", key: Path | None) -> list["Fault"]:
    """The faults ``verify --digest`` adds: the journal does not extend the digest, or it is not signed by ``key``."""
    from yarnlog.core.decide import Fault

    faults = []
    if digest.campaign_id != campaign_id:
        faults.append(Fault(0, "digest", f"the digest is of campaign {digest.campaign_id}, not {campaign_id}"))
        return faults
    if key is not None:
        from yarnlog.app.signing import signature_problem

        problem = signature_problem(digest, key)
        if problem is not None:
            faults.append(Fault(digest.size, "digest", problem))
    problem = journal.digest_problem(digest)
    if problem is not None:
        faults.append(Fault(digest.size, "digest", problem))
    return faults


def digest(
    campaign: CampaignOpt = None,
    prove_from: Annotated[Optional[str], typer.Option("--prove-from", help="An older digest: print the proof "
                                                      "that today's journal extends it (for 'check-proof').")] = None,
    sign: Annotated[Optional[Path], typer.Option("--sign", help="Sign the digest with this secret key file "
                                                 "('yarnlog keygen').")] = None,
    as_json: JsonOpt = False,
) -> None:
    """One line that pins the campaign's whole history: campaign, events and their Merkle root."""
    from yarnlog.core.digest import parse_digest

    old = parse_digest(prove_from) if prove_from is not None else None
    journal = open_journal()
    cid = pick_campaign(journal, campaign or (old.campaign_id if old else None))
    if old is not None:
        with working(f"proving {cid} extends the digest of event {old.size}"):
            proof = journal.prove_consistency(old)
        new = _signed(proof.new, sign)
        data = {**proof.to_data(), "to": new.line()}

        # Only the digest on stdout (d=$(yarnlog digest ...) takes it whole); the words around it on stderr.
        def render_proof(d: dict) -> None:
            err = console(stderr=True)
            err.print(f"Today's digest extends yours of event {old.size}:", markup=False, emoji=False)
            console().print(d["to"], markup=False, emoji=False, soft_wrap=True)
            err.print("Save the proof with --json for 'yarnlog check-proof'.", markup=False, emoji=False)

        emit(data, as_json, render_proof)
        return
    with working(f"hashing {cid}"):
        today = _signed(journal.digest(cid), sign)

    def render(d: dict) -> None:
        console().print(d["digest"], markup=False, emoji=False, soft_wrap=True)
        console(stderr=True).print(PASTE_HINT, markup=False, emoji=False)

    emit(today.to_data(), as_json, render)


def _signed(digest: "Digest", key: Path | None) -> "Digest":
    if key is None:
        return digest
    from yarnlog.app.signing import sign

    return sign(digest, key)


def check_proof(
    proof_file: Annotated[Path, typer.Argument(help="The proof ('yarnlog digest --prove-from D --json'); '-' for "
                                               "stdin.")],
    kept: Annotated[str, typer.Option("--from", help="The digest you kept: the proof must start from it.")],
    to: Annotated[Optional[str], typer.Option("--to", help="The newer digest you were given (say, signed in the "
                                              "chat): the proof must end at it.")] = None,
    key: Annotated[Optional[Path], typer.Option("--key", help="The GM's public key: the newer digest must be "
                                                "signed with it.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check, without any journal, that a newer digest extends the one you kept (exit 1 if not)."""
    from yarnlog.core.digest import check_consistency, parse_digest, parse_proof
    from yarnlog.core.referee import InvalidCommand

    mine = parse_digest(kept)
    given = parse_digest(to) if to is not None else None
    try:
        text = sys.stdin.read() if str(proof_file) == "-" else proof_file.read_text(encoding="utf-8")
        raw = json.loads(text)
    except OSError as exc:
        raise InvalidCommand(f"cannot read {proof_file}: {exc.strerror}") from None
    except ValueError:
        raise InvalidCommand(f"{proof_file} is not JSON: save the proof with 'yarnlog digest --prove-from D "
                             "--json'") from None
    proof = parse_proof(raw)
    problems = []
    if proof.old.unsigned() != mine.unsigned():
        problems.append("the proof starts from another digest than the one you kept")
    if given is not None and proof.new.unsigned() != given.unsigned():
        problems.append("the proof ends at another digest than the one you were given")
    if key is not None:
        from yarnlog.app.signing import signature_problem

        signed = given if given is not None else proof.new
        problem = signature_problem(signed, key)
        if problem is not None:
            problems.append(problem)
    problem = check_consistency(proof)
    if problem is not None:
        problems.append(problem)
    data = {"ok": not problems, "from": proof.old.line(), "to": proof.new.line(), "problems": problems}

    def render(d: dict) -> None:
        if d["ok"]:
            console().print(f"ok: {proof.new.campaign_id} at event {proof.new.size} extends your digest of event "
                            f"{proof.old.size}.", markup=False, emoji=False)
            return
        err = console(stderr=True)
        for line in d["problems"]:
            err.print(f"FAULT: {line}", markup=False, emoji=False)

    emit(data, as_json, render)
    if problems:
        raise typer.Exit(1)


def keygen(
    secret_file: Annotated[Path, typer.Argument(help="Where to write the secret key (the public key goes beside "
                                                "it, with .pub).")],
    as_json: JsonOpt = False,
) -> None:
    """Make a GM's signing key for digests: a secret key file and its public key (.pub) for the players."""
    from yarnlog.app.signing import generate_key

    public = generate_key(secret_file)
    data = {"secret_key": str(secret_file), "public_key": str(public)}
    emit(data, as_json, lambda d: console().print(
        f"Secret key in {d['secret_key']}: keep it to yourself.\nPublic key in {d['public_key']}: give it to "
        "the players.", markup=False, emoji=False, soft_wrap=True))


@db_app.command("grant")
def db_grant(
    writer: Annotated[str, typer.Option("--writer", help="The role the application connects as (it must exist "
                                        "and own nothing of the journal).")],
    as_json: JsonOpt = False,
) -> None:
    """Run as the owner: create the journal's tables, then let WRITER only read and append events.

    The writer gets SELECT and INSERT on the events (and the snapshot caches it may rewrite), nothing
    else: it cannot UPDATE, DELETE, TRUNCATE, DROP, ALTER or DISABLE TRIGGER.
    """
    journal = open_journal(create=True)
    granted = journal.grant_writer(writer)
    data = {"writer": writer, "granted": granted}
    def render(d: dict) -> None:
        out = console()
        out.print(f"{writer} may now read and append events, and nothing else:", markup=False, emoji=False)
        for statement in d["granted"]:
            out.print(f"  {statement}", markup=False, emoji=False, soft_wrap=True)

    emit(data, as_json, render)
