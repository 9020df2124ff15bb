"""A GM's signature on a digest (Ed25519, by PyNaCl): a digest only the key's holder could have made.

An unsigned digest pasted in a chat proves what the journal held when it was pasted, if the chat
is trusted to show who pasted it; a signed one carries that by itself. Keys are files of hex text:
the secret seed (``yarnlog keygen`` writes it readable by its owner only) and the public key,
which the players keep.
"""

from __future__ import annotations

import base64
import binascii
import os
from dataclasses import replace
from pathlib import Path

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from yarnlog.core.digest import Digest
from yarnlog.core.referee import InvalidCommand


def generate_key(secret_path: Path) -> Path:
    """Write a new secret key to ``secret_path`` (mode 0600, never over an existing file) and its
    public key beside it (``.pub``); the public key's path."""
    if secret_path.name in ("", "-") or secret_path.is_dir():
        # "-" reads as standard output elsewhere; a key pair is two files, so it needs a real path.
        raise InvalidCommand("keygen writes two files (the key and its .pub): "
                             f"give a file path, not {str(secret_path)!r}")
    key = SigningKey.generate()
    public_path = secret_path.with_name(secret_path.name + ".pub")
    for path in (secret_path, public_path):
        if path.exists():
            raise InvalidCommand(f"{path} already exists: a key is never overwritten")
    try:
        fd = os.open(secret_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(key.encode().hex() + "\n")
        public_path.write_text(key.verify_key.encode().hex() + "\n", encoding="ascii")
    except OSError as exc:
        raise InvalidCommand(f"cannot write the key: {exc.strerror} ({exc.filename})") from None
    return public_path


def _read_key(path: Path, what: str) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
        raw = bytes.fromhex(text)
    except OSError as exc:
        raise InvalidCommand(f"cannot read the {what} {path}: {exc.strerror}") from None
    except ValueError:
        raise InvalidCommand(f"{path} is not a {what} written by 'yarnlog keygen' (64 hex digits)") from None
    if len(raw) != 32:
        raise InvalidCommand(f"{path} is not a {what} written by 'yarnlog keygen' (64 hex digits)")
    return raw


def sign(digest: Digest, secret_path: Path) -> Digest:
    """``digest`` signed with the secret key in ``secret_path``."""
    key = SigningKey(_read_key(secret_path, "secret key"))
    signature = key.sign(digest.signed_text()).signature
    return replace(digest, signature=base64.urlsafe_b64encode(signature).rstrip(b"=").decode("ascii"))


def signature_problem(digest: Digest, public_path: Path) -> str | None:
    """Why ``digest`` is not signed by the holder of the key ``public_path`` holds; None if it is."""
    key = VerifyKey(_read_key(public_path, "public key"))
    if not digest.signature:
        return "the digest is not signed"
    try:
        signature = base64.urlsafe_b64decode(digest.signature + "==")
        key.verify(digest.signed_text(), signature)
    except (BadSignatureError, binascii.Error, ValueError):
        return f"the digest's signature is not by the key in {public_path}"
    return None
