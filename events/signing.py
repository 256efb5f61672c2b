"""Signed logs: each record stamped with an organiser's Ed25519 key, so a forged match is caught.

The CRCs and the hash chain show damage and careless edits, but anyone who can rewrite a file can
recompute them. A signature cannot be recomputed without the private key. A recorder (the
simulator, `postgame log start/append`) given a key stamps every record, the header included:
the stamp is the key's id (8 bytes of its hash, to say which key without a lookup) then the
Ed25519 signature of the record's unsigned encoding, [seq, prev, body]. prev is the hash of the
frame before, so each signature covers the whole log up to its record; dropping trailing commits
leaves a validly signed prefix, which only an anchor (the head hash kept elsewhere) catches.

Keys are PEM files (PKCS#8 private, SubjectPublicKeyInfo public), made by `postgame keys new`; a
public key may also be given as the 64 hex digits of its raw bytes.
"""
from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from events import games
from events.base import Record
from events.log import KEY_ID_SIZE, LogFile, SigningError, frame_hash, rebuilt_records

SIGNATURE_SIZE = 64
DOMAIN = b"postgame log record\x00"
"""Prefixed to what is signed, so a postgame signature can never pass for another protocol's."""


class KeyFileError(ValueError):
    """A key file cannot be used: missing, unreadable, or not an Ed25519 key."""

    def __init__(self, path: str | Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path


def raw_public(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public: Ed25519PublicKey) -> bytes:
    return hashlib.blake2b(raw_public(public), digest_size=KEY_ID_SIZE).digest()


def signed_message(record: Record[Any]) -> bytes:
    """What a stamp signs: the record's encoding without a stamp."""
    return DOMAIN + games.ENCODER.encode((record.seq, record.prev, record.body))


@dataclass(frozen=True)
class Signer:
    """Stamps records with a private key: pass it as `sign` to the log writers."""

    private: Ed25519PrivateKey

    @functools.cached_property
    def key_id(self) -> bytes:
        return key_id(self.private.public_key())

    def __call__(self, record: Record[Any]) -> bytes:
        return self.key_id + self.private.sign(signed_message(record))

    @classmethod
    def from_raw(cls, raw: bytes) -> Signer:
        """From the key's 32 raw bytes (how the simulator hands it to its worker processes)."""
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    def raw(self) -> bytes:
        return self.private.private_bytes(serialization.Encoding.Raw,
                                          serialization.PrivateFormat.Raw,
                                          serialization.NoEncryption())


@dataclass(frozen=True)
class KeyPair:
    private_pem: bytes
    public_pem: bytes
    key_id: bytes


def new_key_pair() -> KeyPair:
    private = Ed25519PrivateKey.generate()
    return KeyPair(
        private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                              serialization.NoEncryption()),
        private.public_key().public_bytes(serialization.Encoding.PEM,
                                          serialization.PublicFormat.SubjectPublicKeyInfo),
        key_id(private.public_key()))


def write_key_pair(stem: Path, pair: KeyPair) -> tuple[Path, Path]:
    """STEM.key (readable by its owner only) and STEM.pub; refuses to replace either."""
    private, public = stem.with_name(stem.name + ".key"), stem.with_name(stem.name + ".pub")
    for path in (private, public):
        if path.exists():
            raise KeyFileError(path, "already exists; not replacing a key")
    fd = os.open(private, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pair.private_pem)
    public.write_bytes(pair.public_pem)
    return private, public


def load_signer(path: str | Path) -> Signer:
    """The private key of a .key file (PEM, unencrypted), as a Signer."""
    return Signer(_read_pem(path, "private key (unencrypted)", Ed25519PrivateKey,
                            lambda data: serialization.load_pem_private_key(data, None)))


def load_public_key(given: str) -> Ed25519PublicKey:
    """A public key: a .pub file (PEM), or the 64 hex digits of the raw key."""
    if len(given) == 64 and all(c in "0123456789abcdefABCDEF" for c in given):
        try:
            return Ed25519PublicKey.from_public_bytes(bytes.fromhex(given))
        except ValueError as err:
            raise KeyFileError(given, f"not an Ed25519 public key ({err})") from None
    try:
        key: Ed25519PublicKey = _read_pem(given, "public key", Ed25519PublicKey,
                                          serialization.load_pem_public_key)
    except KeyFileError:
        try:  # the private key, given where its public half would do
            return load_signer(given).private.public_key()
        except KeyFileError:
            pass
        raise
    return key


def _read_pem(path: str | Path, what: str, kind: type, load: Callable[[bytes], Any]) -> Any:
    try:
        key = load(Path(path).read_bytes())
    except OSError as err:
        raise KeyFileError(path, f"cannot read the {what}: {err.strerror or err}") from None
    except (ValueError, TypeError) as err:
        raise KeyFileError(path, f"not a PEM {what} ({err})") from None
    if not isinstance(key, kind):
        raise KeyFileError(path, f"a {type(key).__name__}, not an Ed25519 {what}")
    return key


def signer_of(log: LogFile) -> str | None:
    """The hex id of the key that stamped the log's header; None for an unsigned log."""
    stamp = log.stamps[0] if log.stamps else None
    return stamp[:KEY_ID_SIZE].hex() if stamp is not None else None


def check_signatures(log: LogFile, public: Ed25519PublicKey) -> int:
    """Check that every record of the log is stamped by this key and its signature holds;
    returns how many records were checked. Raises SigningError naming the first record (by
    seq: 0 is the header, else the first event of the commit) that fails.

    The records are rebuilt from what was decoded, with their stored stamps; the rebuilt head
    must be the file's, which proves every rebuilt frame is the stored one (each names the hash
    of the one before). For the same reason the last record's signature vouches for all the
    records before it: the others are checked one by one only to name the first bad one.
    """
    wanted = key_id(public)
    rebuilt = _rebuilt(log)
    for record in rebuilt:
        _check_stamp(log, record, wanted)
    if not _holds(public, rebuilt[-1]):
        bad = next(record for record in rebuilt if not _holds(public, record))
        raise SigningError(log.path, f"the signature of {_what(bad)} does not check: the "
                                     "record was changed after it was signed", bad.seq)
    return len(rebuilt)


def _rebuilt(log: LogFile) -> list[Record[Any]]:
    rebuilt = list(rebuilt_records(log))
    if frame_hash(rebuilt[-1][1]) != log.head:
        raise SigningError(log.path, "its records do not re-encode to its bytes (written by "
                                     "another encoder?), so its signatures cannot be checked",
                           rebuilt[-1][0].seq)
    return [record for record, _ in rebuilt]


def _what(record: Record[Any]) -> str:
    return "the header" if record.seq == 0 else f"the commit at seq {record.seq}"


def _check_stamp(log: LogFile, record: Record[Any], wanted: bytes) -> None:
    """The stamp is there, of the right size, and names the key given."""
    stamp = record.sig
    if stamp is None:
        raise SigningError(log.path, f"{_what(record)} is not signed", record.seq)
    if len(stamp) != KEY_ID_SIZE + SIGNATURE_SIZE:
        raise SigningError(log.path, f"the stamp of {_what(record)} is {len(stamp)} bytes, not "
                                     f"{KEY_ID_SIZE + SIGNATURE_SIZE}", record.seq)
    if stamp[:KEY_ID_SIZE] != wanted:
        raise SigningError(log.path, f"{_what(record)} is signed by key "
                                     f"{stamp[:KEY_ID_SIZE].hex()}, not by the key given "
                                     f"({wanted.hex()})", record.seq)


def _holds(public: Ed25519PublicKey, record: Record[Any]) -> bool:
    try:
        public.verify((record.sig or b"")[KEY_ID_SIZE:], signed_message(record))
    except InvalidSignature:
        return False
    return True
