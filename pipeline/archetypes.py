"""Archetypes from what decks hold, not from what they are called: the distinct deck lists in
scope (archetype_lists.sql) clustered within each faction by the weighted Jaccard distance of
their card counts, as HSReplay groups decks; each cluster named by its faction and signature
cards. Recorded decks carry whatever names players give them, so the deck name cannot group
them.

- Lists: the cards of the sections that make an archetype (GameInfo.archetype_sections: not
  the resource piles every deck fills alike). A list with none of them is left out.
- Distance: 1 - sum(min(a, b)) / sum(max(a, b)) over the copies of each card. On counts this
  is the plain Jaccard distance of the lists written out as copy tokens (the 2nd copy of a
  card is its own token), which scipy computes in C (pdist, "jaccard").
- Clusters: average linkage (scipy.cluster.hierarchy), cut at MAX_DISTANCE: two lists of one
  archetype share most of their cards, lists of two archetypes of one faction mostly the
  faction's staples.
- Signature: the cards the cluster holds most above its faction's average copies (in steps of
  half a copy, so that a season's noise does not reorder them), ties by id; the name is the faction and the two first ("Scarlet Red – Steel Sultanate ·
  Steel Grenadiers + Furnace Assault Squad"). The signature depends on the lists alone, so
  the same archetype gets the same name in any tournament or epoch it is played in; its id
  is a hash of the faction and the signature (two clusters of one signature are one
  archetype). Lists in clusters of fewer than MIN_LISTS are their faction's "other lists".

The model input `archetype_of` (deck_id -> archetype) is what the archetype models join on
(archetype_win_rates.sql, archetype_matchups.sql: `-- input: archetype_of = ...`).
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

MAX_DISTANCE = 0.4
"""Lists further apart than this (on average, between clusters) are not one archetype. On a
simulated Vitorian season (2,000 matches, 250 lists, each a random variant of one of 8 preset
archetypes) the Maneuver Decks of one preset lie 0.21-0.46 apart (5th-95th percentile), of two
presets of a faction 0.33-0.55; cut at 0.4, every list falls with its preset (0.35 splits
presets, 0.45 merges a faction's two)."""
MIN_LISTS = 3
"""A cluster of fewer lists is no archetype yet: its lists join their faction's "other lists"
(HSReplay's "Other"), so a one-off brew does not get a name and a win rate of its own."""
MIN_SHARE = 0.02
"""Nor is a cluster of under 2% of its faction's lists: it joins the nearest archetype, or the
faction's other lists (a season of thousands of lists splinters into many small clusters)."""
SIGNATURE_CARDS = 2
ARCHETYPE_OF = pa.schema([("deck_id", pa.string()), ("archetype", pa.string()),
                          ("archetype_name", pa.string()), ("faction", pa.string()),
                          ("signature", pa.string())])


def archetype_of(con: Any, params: Mapping[str, Any]) -> pa.Table:
    """The model input: every deck list in scope with its archetype (a `-- input:` function:
    the connection and the model's parameters in, a table out)."""
    from pipeline import metrics

    lists = metrics.model_rows(con, "archetype_lists", **{k: params.get(k) for k in (
        "game", "format", "date_from", "date_to")})
    return cluster_table(lists, str(params.get("game")))


def sections_table(con: Any, params: Mapping[str, Any]) -> pa.Table:
    """The model input `archetype_sections` of archetype_lists: the sections of the game's
    lists that make an archetype (none: every section)."""
    return pa.table({"section": pa.array(archetype_sections(str(params.get("game"))),
                                         pa.string())})


def cluster(lists: pd.DataFrame | pa.Table, game: str) -> pd.DataFrame:
    """deck_id, archetype (id), archetype_name, faction and signature (card names) of every
    list of archetype_lists' rows (cluster_table, as a frame)."""
    if isinstance(lists, pd.DataFrame):
        lists = pa.Table.from_pandas(lists[list(LIST_COLUMNS)], preserve_index=False)
    return cluster_table(lists, game).to_pandas()


LIST_COLUMNS = ("deck_id", "faction", "decks", "section", "card", "card_name", "copies")
"""The columns of archetype_lists' rows the clustering reads."""


def cluster_table(lists: pa.Table, game: str) -> pa.Table:
    """cluster's rows as an Arrow table (ARCHETYPE_OF); the same lists give the same answer
    from a cache. The lists are read as Arrow and numpy arrays, not a frame: a million-match
    season has some 250,000 lists of 25 lines."""
    lists = _Lists.of(lists, archetype_sections(game))
    key = (game, lists.digest())
    if key not in _CLUSTERED:
        if len(_CLUSTERED) >= CACHED:
            _CLUSTERED.pop(next(iter(_CLUSTERED)))
        _CLUSTERED[key] = _cluster(lists, game)
    return _CLUSTERED[key]


_CLUSTERED: dict[tuple[str, str], pa.Table] = {}
CACHED = 8
"""Clusterings kept: a page, a report and the models of one scope ask for the same lists."""


@dataclass(frozen=True)
class _Lists:
    """archetype_lists' rows as codes: each row's faction, list and card as indexes into the
    sorted distinct values, beside its copies and its list's plays."""

    factions: np.ndarray
    faction_of: np.ndarray
    decks: np.ndarray
    deck_of: np.ndarray
    cards: np.ndarray
    card_of: np.ndarray
    card_names: np.ndarray
    copies: np.ndarray
    played: np.ndarray

    @classmethod
    def of(cls, rows: pa.Table, sections: tuple[str, ...] = ()) -> _Lists:
        """The rows of these sections (all for none), encoded (archetype_lists' rows hold
        only those already)."""
        if sections:
            keep = pc.is_in(rows["section"].cast(pa.string()), pa.array(sections, pa.string()))
            if not pc.all(keep).as_py():
                rows = rows.filter(keep)
        decks, deck_of = _codes(rows["deck_id"].cast(pa.string()))
        first = _first_rows(len(decks), deck_of)  # a list's faction: any of its rows'
        factions, list_faction = _codes(pc.fill_null(
            rows["faction"].take(first).cast(pa.string()), ""))
        faction_of = list_faction[deck_of]
        cards, card_of = _codes(rows["card"].cast(pa.string()))
        names = _per_code(len(cards), card_of, rows["card_name"])
        copies, played = _floats(rows["copies"]), _floats(rows["decks"])
        return cls(factions, faction_of, decks, deck_of, cards, card_of, names, copies, played)

    def digest(self) -> str:
        """A hash of everything the clustering reads, whatever the order of the rows: the
        sorted distinct values, each list's faction and plays (by list code), and the sum of
        a 64-bit mix of each row's (list, card, copies), a multiset hash."""
        h = hashlib.blake2b(digest_size=16)
        for values in (self.factions, self.decks, self.cards, self.card_names):
            h.update("\x1f".join(map(str, values)).encode())
        per_list = np.full((2, len(self.decks)), -1, dtype=np.int64)
        per_list[0, self.deck_of], per_list[1, self.deck_of] = self.faction_of, self.played
        h.update(per_list.tobytes())
        line = self.deck_of.astype(np.uint64) * np.uint64(len(self.cards)) + self.card_of
        rows = _mix(line * np.uint64(_COPIES) + self.copies.astype(np.uint64))
        h.update(int(rows.sum(dtype=np.uint64)).to_bytes(8, "little"))
        h.update(len(rows).to_bytes(8, "little"))
        return h.hexdigest()


_COPIES = 1 << 16
"""Copies of a line below this pack with the line into one 64-bit value (a list holds a card's
few copies; 250,000 lists of 1,000 cards leave 2^36 to spare)."""


def _mix(values: np.ndarray) -> np.ndarray:
    """splitmix64's finalizer on each value (uint64, wrapping): neighbouring inputs land far
    apart, so that a sum of mixed rows tells multisets apart."""
    x = values.astype(np.uint64)
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _first_rows(size: int, codes: np.ndarray) -> pa.Array:
    """A row of each code (0..size-1, every one present among the rows)."""
    rows = np.zeros(size, dtype=np.int64)
    rows[codes] = np.arange(len(codes))
    return pa.array(rows)


def _per_code(size: int, codes: np.ndarray, values: pa.ChunkedArray) -> np.ndarray:
    """The value of each code, from any of its rows (a card's name is the same on every one:
    the catalog's)."""
    out = np.empty(size, dtype=object)
    out[:] = values.take(_first_rows(size, codes)).to_numpy(zero_copy_only=False)
    return out


def _local(codes: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct codes among these rows (sorted) and each row's index into them, in linear
    time (np.unique sorts)."""
    present = np.zeros(size, dtype=bool)
    present[codes] = True
    index = np.cumsum(present) - 1
    return np.flatnonzero(present), index[codes]


def _floats(values: pa.ChunkedArray) -> np.ndarray:
    return values.cast(pa.float64()).to_numpy()


def _codes(values: pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values (in code-point order, as Python sorts strings) and each
    row's index into them; sorted by Arrow, in C++."""
    encoded = values.combine_chunks().dictionary_encode()
    order = pc.array_sort_indices(encoded.dictionary).to_numpy()
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    distinct = encoded.dictionary.take(pa.array(order)).to_numpy(zero_copy_only=False)
    return distinct, rank[encoded.indices.to_numpy(zero_copy_only=False)]


def _cluster(lists: _Lists, game: str) -> pa.Table:
    from pipeline.factions import faction_name, faction_names

    names = faction_names(game)
    out: dict[str, list[Any]] = {name: [] for name in ARCHETYPE_OF.names}
    for code, faction in enumerate(lists.factions):
        rows = lists.faction_of == code
        if not rows.any():  # every line of the faction's lists is in another section
            continue
        deck_codes, deck_row = _local(lists.deck_of[rows], len(lists.decks))
        card_codes, card_col = _local(lists.card_of[rows], len(lists.cards))
        shape = (len(deck_codes), len(card_codes))
        matrix = np.bincount(deck_row * shape[1] + card_col, weights=lists.copies[rows],
                             minlength=shape[0] * shape[1]).reshape(shape)
        played = np.empty(shape[0])
        played[deck_row] = lists.played[rows]  # every row of a list has its plays
        labels = _labels(matrix, played)
        cards = [str(c) for c in lists.cards[card_codes]]
        card_names = dict(zip(cards, lists.card_names[card_codes]))
        shown = faction_name(names, faction) if faction else "no faction"
        lift = _lift(matrix, labels, played)
        for label in np.unique(labels):
            signature = [] if label == 0 else _signature(cards, lift[label],
                                                          matrix[labels == label])
            words = (" + ".join(str(card_names.get(c, c)) for c in signature) if signature
                     else "other lists")
            key = hashlib.sha1(f"{faction}|{'|'.join(signature)}".encode()).hexdigest()[:10]
            members = lists.decks[deck_codes[labels == label]]
            out["deck_id"] += list(members)
            for column, value in (("archetype", key), ("archetype_name", f"{shown} · {words}"),
                                  ("faction", faction or None), ("signature", words)):
                out[column] += [value] * len(members)
    return pa.table(out, schema=ARCHETYPE_OF)


def archetype_sections(game: str) -> tuple[str, ...]:
    """The sections the game's archetypes are made of (GameInfo.archetype_sections); ()
    for every section."""
    from engine import registry

    return registry.info(game).archetype_sections if registry.is_registered(game) else ()


CORE_LISTS = 2_000
"""At most this many lists of a faction (the most played) are clustered with each other; every
other list joins the nearest cluster's centroid if it lies within MAX_DISTANCE of it, else its
faction's other lists. Average linkage needs every pair (n² distances), so a season of a
million matches stays a matter of seconds."""


def _labels(counts: np.ndarray, played: np.ndarray) -> np.ndarray:
    """A label per list (row): 1..k its archetype, 0 its faction's other lists. The core's
    clusters of at least MIN_LISTS lists and MIN_SHARE of the core are the archetypes; every
    other list (of a smaller cluster, or outside the core) joins the archetype whose centroid
    is nearest, if within MAX_DISTANCE."""
    order = np.lexsort((np.arange(len(counts)), -played))
    core = order[:CORE_LISTS]
    labels = np.zeros(len(counts), dtype=int)
    labels[core] = _clusters(counts[core])
    sizes = np.bincount(labels)
    kept = [k for k in range(1, len(sizes))
            if sizes[k] >= max(MIN_LISTS, MIN_SHARE * len(core))]
    labels[~np.isin(labels, kept)] = 0
    loose = np.flatnonzero(labels == 0)
    if len(loose) and kept:
        centroids = np.stack([counts[labels == k].mean(axis=0) for k in kept])
        distance = _distances(counts[loose], centroids)
        nearest = distance.argmin(axis=1)
        close = distance[np.arange(len(loose)), nearest] <= MAX_DISTANCE
        labels[loose] = np.where(close, np.asarray(kept)[nearest], 0)
    return labels


def _clusters(counts: np.ndarray) -> np.ndarray:
    """Cluster labels (1..k) of the lists, one row each, by weighted Jaccard distance."""
    if len(counts) == 1:
        return np.ones(1, dtype=int)
    tokens = _copy_tokens(counts).astype(np.float32)
    overlap = tokens @ tokens.T  # sum of min(copies) of every pair, as a BLAS product
    sizes = tokens.sum(axis=1)
    union = sizes[:, None] + sizes[None, :] - overlap
    distance = 1.0 - np.divide(overlap, union, out=np.ones_like(overlap), where=union > 0)
    np.fill_diagonal(distance, 0.0)
    condensed = squareform(np.clip(distance, 0.0, 1.0).astype(np.float64), checks=False)
    return fcluster(linkage(condensed, method="average"), t=MAX_DISTANCE, criterion="distance")


def _distances(lists: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Weighted Jaccard distance of each list to each centroid (mean copies of a cluster):
    1 - sum(min) / sum(max), computed one centroid at a time."""
    out = np.empty((len(lists), len(centroids)))
    for j, centre in enumerate(centroids):
        low, high = np.minimum(lists, centre).sum(axis=1), np.maximum(lists, centre).sum(axis=1)
        out[:, j] = 1.0 - np.divide(low, high, out=np.ones_like(low), where=high > 0)
    return out


def _copy_tokens(counts: np.ndarray) -> np.ndarray:
    """Each card's copies written out as tokens: column (card, k) is set when the list holds at
    least k copies, so set overlap = sum of min(copies), union = sum of max(copies)."""
    most = max(int(counts.max(initial=0)), 1)
    return np.concatenate([counts >= k for k in range(1, most + 1)], axis=1)


def _lift(counts: np.ndarray, labels: np.ndarray, played: np.ndarray) -> dict[int, np.ndarray]:
    """Per archetype, its average copies of each card above the faction's (both weighted by how
    often each list was played)."""
    everyone = np.average(counts, axis=0, weights=played)
    return {int(k): np.average(counts[labels == k], axis=0, weights=played[labels == k])
            - everyone for k in np.unique(labels) if k}


def _signature(cards: list[str], lift: np.ndarray, members: np.ndarray) -> list[str]:
    """The cards that set the cluster apart (`lift`, in half copies), ties by card id."""
    held = members.mean(axis=0)
    apart = np.round(lift * 2) / 2  # in half copies: a season's noise does not reorder them
    ranked = sorted((i for i in range(len(cards)) if held[i] > 0),
                    key=lambda i: (-apart[i], cards[i]))
    return sorted(cards[i] for i in ranked[:SIGNATURE_CARDS])  # a set: its order tells nothing
