-- model: archetype_win_rates
-- grain: one row per archetype (a cluster of deck lists, pipeline.archetypes) of $game in the
-- matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep archetypes with at least this many seat-games)
-- input: archetype_of = pipeline.archetypes:archetype_of
-- An archetype groups the deck lists that hold much the same cards (weighted Jaccard over card
-- counts, within a faction), whatever their players named them; it is named by its faction
-- and signature cards. seat_games counts every deck of the archetype, meta_share its share of
-- all decks, lists its distinct deck lists. The win rate leaves out the mirror matches against
-- the same archetype (counted in mirror_matches). A draw counts as not a win.
-- rate: meta_share = seat_games / all_seat_games
-- rate: win_rate = wins / games
-- order: seat_games DESC, archetype_name
WITH games AS (
    SELECT
        g.match_id,
        g.deck_id,
        g.won,
        g.lost,
        g.drew,
        a.archetype,
        a.archetype_name,
        a.signature,
        a.faction,
        CASE WHEN COUNT(*) OVER (PARTITION BY g.match_id, a.archetype) > 1 THEN 1 ELSE 0 END
            AS mirror,
        COUNT(*) OVER () AS all_seat_games
    FROM stg_deck_games AS g
    INNER JOIN archetype_of AS a ON a.deck_id = g.deck_id
)
SELECT
    archetype,
    archetype_name,
    faction,
    signature,
    COUNT(DISTINCT deck_id) AS lists,
    all_seat_games,
    COUNT(*) AS seat_games,
    SUM(1 - mirror) AS games,
    SUM((1 - mirror) * drew) AS draws,
    SUM((1 - mirror) * lost) AS losses,
    SUM((1 - mirror) * won) AS wins,
    COUNT(DISTINCT CASE WHEN mirror = 1 THEN match_id END) AS mirror_matches
FROM games
GROUP BY archetype, archetype_name, faction, signature, all_seat_games
HAVING COUNT(*) >= COALESCE($min_sample, 0)
