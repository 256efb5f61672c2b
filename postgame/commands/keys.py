"""`postgame keys`: make and show the Ed25519 key pairs that sign match logs (events.signing)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from postgame.commands.common import OK, UserError, add_command, print_json

EXAMPLES = """\
examples:
  postgame keys new organiser              # organiser.key (keep it secret) and organiser.pub
  postgame keys show organiser.pub         # the key's id, as signed logs name it
  postgame simulate vitorian --players 8 --rounds 3 --seed 1 --out sim --sign-key organiser.key
  postgame verify sim --key organiser.pub  # refuses any log not signed by this key

The private key signs (--sign-key of simulate, log start, log append); the public key checks
(--key of verify and ingest). Share the .pub file; never the .key file.
"""


def register(sub: argparse._SubParsersAction) -> None:
    keys = sub.add_parser("keys", help="make and show log-signing keys (Ed25519)",
                          description="Key pairs that sign match logs, so a forged or edited "
                                      "match is caught by verify --key.")
    tools = keys.add_subparsers(dest="keys_command", metavar="TOOL", required=True)
    p = add_command(tools, "new", help="make a key pair: STEM.key and STEM.pub",
                    description="Make a new Ed25519 key pair; STEM.key is readable by you only. "
                                "Refuses to replace existing files.", examples=EXAMPLES)
    p.add_argument("stem", type=Path, nargs="?",
                   help="path and name of the pair, without extension (default: organiser)")
    p.add_argument("--out", type=Path, metavar="STEM", help="the same as STEM")
    p.add_argument("--json", action="store_true", help="print the paths and key id as JSON")
    p.set_defaults(func=run_new)
    p = add_command(tools, "show", help="print the id of a public or private key",
                    description="Print a key's id: the one `verify` names for a signed log.",
                    examples=EXAMPLES)
    p.add_argument("key", help="a .pub or .key file, or a public key's 64 hex digits")
    p.set_defaults(func=run_show)


def run_new(args: argparse.Namespace) -> int:
    from events.signing import KeyFileError, new_key_pair, write_key_pair

    stem = args.out or args.stem or Path("organiser")
    if not stem.parent.is_dir():
        raise UserError(f"{stem.parent}: no such folder")
    pair = new_key_pair()
    try:
        private, public = write_key_pair(stem, pair)
    except KeyFileError as err:
        raise UserError(str(err)) from err
    if args.json:
        print_json({"private": str(private), "public": str(public), "key_id": pair.key_id.hex()})
    print(f"key {pair.key_id.hex()}: private {private} (keep it secret), public {public}",
          file=sys.stderr)
    return OK


def run_show(args: argparse.Namespace) -> int:
    from events.signing import KeyFileError, key_id, load_public_key, load_signer

    try:
        if args.key.endswith(".key"):
            print(load_signer(args.key).key_id.hex())
        else:
            print(key_id(load_public_key(args.key)).hex())
    except KeyFileError as err:
        raise UserError(str(err)) from err
    return OK
