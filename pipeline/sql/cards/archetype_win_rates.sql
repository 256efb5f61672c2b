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
WITH seat_games AS (
    SELECT g.match_id, g.won, g.lost, g.drew, a.archetype
    FROM stg_deck_games AS g
    INNER JOIN archetype_of AS a ON a.deck_id = g.deck_id
),
match_archetypes AS (
    SELECT
        match_id,
        archetype,
        COUNT(*) AS seats,
        SUM(won) AS won,
        SUM(lost) AS lost,
        SUM(drew) AS drew
    FROM seat_games
    GROUP BY match_id, archetype
),
played AS (
    SELECT
        archetype,
        CAST(SUM(seats) AS BIGINT) AS seat_games,
        SUM(CASE WHEN seats = 1 THEN 1 ELSE 0 END) AS games,
        SUM(CASE WHEN seats = 1 THEN drew ELSE 0 END) AS draws,
        SUM(CASE WHEN seats = 1 THEN lost ELSE 0 END) AS losses,
        SUM(CASE WHEN seats = 1 THEN won ELSE 0 END) AS wins,
        CAST(SUM(CASE WHEN seats > 1 THEN 1 ELSE 0 END) AS BIGINT) AS mirror_matches
    FROM match_archetypes
    GROUP BY archetype
),
all_played AS (
    SELECT CAST(SUM(seat_games) AS BIGINT) AS all_seat_games
    FROM played
),
archetypes AS (  -- archetype_of holds one row per list in scope: its lists, counted
    SELECT archetype, archetype_name, faction, signature, COUNT(*) AS lists
    FROM archetype_of
    GROUP BY archetype, archetype_name, faction, signature
)
SELECT
    a.archetype,
    a.archetype_name,
    a.faction,
    a.signature,
    a.lists,
    t.all_seat_games,
    p.seat_games,
    p.games,
    p.draws,
    p.losses,
    p.wins,
    p.mirror_matches
FROM played AS p
INNER JOIN archetypes AS a ON a.archetype = p.archetype
CROSS JOIN all_played AS t
WHERE p.seat_games >= COALESCE($min_sample, 0)
