"""Reading a game's card catalog file (data/<game>/cards.toml), for any game.

Each game declares what its file holds (its CatalogFile Struct) and builds its own Catalog of
lookups from it; what they share is how the file is read and how a bad one is refused: unknown
fields or effects, wrong types and inconsistent cards all name the file (VW-3.17 and ER-2.14
reject decks naming cards such a catalog does not hold).
"""
from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import msgspec

FileT = TypeVar("FileT")
CatalogT = TypeVar("CatalogT")


def read_catalog(path: Path, file_type: type[FileT],
                 build: Callable[[FileT], CatalogT]) -> CatalogT:
    """`build` applied to the TOML file at `path` decoded as `file_type`; a file that does not
    decode, or that `build` refuses with ValueError, raises ValueError naming the file."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        return build(msgspec.convert(raw, file_type))
    except (tomllib.TOMLDecodeError, msgspec.ValidationError, ValueError) as err:
        raise ValueError(f"{path}: invalid card catalog: {err}") from err
