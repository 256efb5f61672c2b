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
-- the same archetype (counted in mirror_matches). A draw counts as not a win. The deck-games
-- are rollup_deck_pairs': a match of two deck-games as the pair of lists that met (a mirror
-- when both share an archetype, a row from each side), any other match a row a deck-game.
-- rate: meta_share = seat_games / all_seat_games
-- rate: win_rate = wins / games
-- order: seat_games DESC, archetype_name
WITH deck_games AS (
    SELECT
        p.match_id,
        p.seat_games,
        p.wins,
        p.losses,
        p.draws,
        a.archetype,
        o.archetype AS opponent
    FROM rollup_deck_pairs AS p
    INNER JOIN archetype_of AS a ON a.deck_id = p.deck_id
    LEFT JOIN archetype_of AS o ON o.deck_id = p.opponent_deck_id
),
two_deck_matches AS (  -- a mirror's two deck-games are two rows: it is half their seat-games
    SELECT
        archetype,
        SUM(seat_games) AS seat_games,
        SUM(CASE WHEN opponent = archetype THEN 0 ELSE seat_games END) AS games,
        SUM(CASE WHEN opponent = archetype THEN 0 ELSE draws END) AS draws,
        SUM(CASE WHEN opponent = archetype THEN 0 ELSE losses END) AS losses,
        SUM(CASE WHEN opponent = archetype THEN 0 ELSE wins END) AS wins,
        SUM(CASE WHEN opponent = archetype THEN seat_games ELSE 0 END) / 2 AS mirror_matches
    FROM deck_games
    WHERE match_id IS NULL
    GROUP BY archetype
),
match_archetypes AS (  -- any other match: its deck-games grouped by archetype
    SELECT
        match_id,
        archetype,
        SUM(seat_games) AS seats,
        SUM(wins) AS won,
        SUM(losses) AS lost,
        SUM(draws) AS drew
    FROM deck_games
    WHERE match_id IS NOT NULL
    GROUP BY match_id, archetype
),
other_matches AS (
    SELECT
        archetype,
        SUM(seats) AS seat_games,
        SUM(CASE WHEN seats = 1 THEN 1 ELSE 0 END) AS games,
        SUM(CASE WHEN seats = 1 THEN drew ELSE 0 END) AS draws,
        SUM(CASE WHEN seats = 1 THEN lost ELSE 0 END) AS losses,
        SUM(CASE WHEN seats = 1 THEN won ELSE 0 END) AS wins,
        SUM(CASE WHEN seats > 1 THEN 1 ELSE 0 END) AS mirror_matches
    FROM match_archetypes
    GROUP BY archetype
),
played AS (
    SELECT
        archetype,
        CAST(SUM(seat_games) AS BIGINT) AS seat_games,
        CAST(SUM(games) AS BIGINT) AS games,
        CAST(SUM(draws) AS BIGINT) AS draws,
        CAST(SUM(losses) AS BIGINT) AS losses,
        CAST(SUM(wins) AS BIGINT) AS wins,
        CAST(SUM(mirror_matches) AS BIGINT) AS mirror_matches
    FROM (
        SELECT * FROM two_deck_matches
        UNION ALL
        SELECT * FROM other_matches
    ) AS both_kinds
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
