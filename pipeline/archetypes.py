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
- Signature: the cards the cluster holds most above its faction's average copies (lift),
  ties by id; the name is the faction and the two first ("Scarlet Red – Steel Sultanate ·
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
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import pdist

MAX_DISTANCE = 0.4
"""Lists further apart than this (on average, between clusters) are not one archetype. On a
simulated Vitorian season (2,000 matches, 250 lists, each a random variant of one of 8 preset
archetypes) the Maneuver Decks of one preset lie 0.21-0.46 apart (5th-95th percentile), of two
presets of a faction 0.33-0.55; cut at 0.4, every list falls with its preset (0.35 splits
presets, 0.45 merges a faction's two)."""
MIN_LISTS = 3
"""A cluster of fewer lists is no archetype yet: its lists join their faction's "other lists"
(HSReplay's "Other"), so a one-off brew does not get a name and a win rate of its own."""
SIGNATURE_CARDS = 2
ARCHETYPE_OF = pa.schema([("deck_id", pa.string()), ("archetype", pa.string()),
                          ("archetype_name", pa.string()), ("faction", pa.string()),
                          ("signature", pa.string())])


def archetype_of(con: Any, params: Mapping[str, Any]) -> pa.Table:
    """The model input: every deck list in scope with its archetype (a `-- input:` function:
    the connection and the model's parameters in, a table out)."""
    from pipeline import metrics

    lists = metrics.run_model(con, "archetype_lists", **{k: params.get(k) for k in (
        "game", "format", "date_from", "date_to")})
    return pa.Table.from_pandas(cluster(lists, str(params.get("game"))), schema=ARCHETYPE_OF,
                                preserve_index=False)


def cluster(lists: pd.DataFrame, game: str) -> pd.DataFrame:
    """deck_id, archetype (id), archetype_name, faction and signature (card names) of every
    list of archetype_lists' rows."""
    from pipeline.factions import faction_name, faction_names

    names = faction_names(game)
    sections = archetype_sections(game)
    if sections:
        lists = lists[lists["section"].isin(sections)]
    out = []
    for faction, rows in lists.groupby(lists["faction"].fillna(""), sort=True):
        counts = rows.pivot_table(index="deck_id", columns="card", values="copies",
                                  aggfunc="sum", fill_value=0).sort_index()
        played = rows.groupby("deck_id")["decks"].first().reindex(counts.index)
        labels = _clusters(counts.to_numpy(dtype=np.int64))
        card_names = rows.groupby("card")["card_name"].first()
        shown = faction_name(names, faction) if faction else "no faction"
        sizes = pd.Series(labels).value_counts()
        labels = np.where(sizes.reindex(labels).to_numpy() >= MIN_LISTS, labels, 0)
        for label in np.unique(labels):
            members = counts.index[labels == label]
            signature = _signature(counts, members, played) if label else []
            words = (" + ".join(str(card_names.get(c, c)) for c in signature) if signature
                     else "other lists")
            key = hashlib.sha1(f"{faction}|{'|'.join(signature)}".encode()).hexdigest()[:10]
            out += [{"deck_id": deck, "archetype": key, "archetype_name": f"{shown} · {words}",
                     "faction": faction or None, "signature": words} for deck in members]
    return pd.DataFrame(out, columns=ARCHETYPE_OF.names)


def archetype_sections(game: str) -> tuple[str, ...]:
    """The sections the game's archetypes are made of (GameInfo.archetype_sections); ()
    for every section."""
    from engine import registry

    return registry.info(game).archetype_sections if registry.is_registered(game) else ()


def _clusters(counts: np.ndarray) -> np.ndarray:
    """Cluster labels (1..k) of the lists, one row each, by weighted Jaccard distance."""
    if len(counts) == 1:
        return np.ones(1, dtype=int)
    tokens = _copy_tokens(counts)
    distances = pdist(tokens, metric="jaccard")
    return fcluster(linkage(distances, method="average"), t=MAX_DISTANCE, criterion="distance")


def _copy_tokens(counts: np.ndarray) -> np.ndarray:
    """Each card's copies written out as tokens: column (card, k) is set when the list holds at
    least k copies, so set overlap = sum of min(copies), union = sum of max(copies)."""
    most = max(int(counts.max(initial=0)), 1)
    return np.concatenate([counts >= k for k in range(1, most + 1)], axis=1)


def _signature(counts: pd.DataFrame, members: pd.Index, played: pd.Series) -> list[str]:
    """The cards the cluster's lists hold most above the faction's average (copies weighted by
    how often each list was played), ties by card id."""
    weights = played.astype("float64")
    mine = np.average(counts.loc[members], axis=0, weights=weights.loc[members])
    everyone = np.average(counts, axis=0, weights=weights)
    lift = pd.DataFrame({"card": counts.columns, "lift": mine - everyone, "held": mine})
    lift = lift[lift["held"] > 0].sort_values(["lift", "held", "card"],
                                              ascending=[False, False, True])
    return list(lift["card"].head(SIGNATURE_CARDS))

