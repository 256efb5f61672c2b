-- model: archetype_matchups
-- grain: one row per ordered (archetype, opponent archetype) pair met in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep pairs met at least this often; NULL = 0)
-- input: archetype_of = pipeline.archetypes:archetype_of
-- Archetypes as archetype_win_rates clusters them. Counts are from the row archetype's side:
-- (A, B) and (B, A) mirror each other. A draw counts as not a win. A mirror (A, A) has one row
-- counted per match, with its draws; its wins, losses and win rate are NULL, as in matchups.
-- rate: win_rate = wins / n
-- order: archetype_name, opponent_name
WITH seat_games AS (
    SELECT g.match_id, g.seat, g.won, g.lost, g.drew, a.archetype, a.archetype_name
    FROM stg_deck_games AS g
    INNER JOIN archetype_of AS a ON a.deck_id = g.deck_id
),
pairs AS (
    SELECT
        a.match_id,
        a.archetype,
        a.archetype_name,
        b.archetype AS opponent,
        b.archetype_name AS opponent_name,
        a.won,
        a.lost,
        a.drew
    FROM seat_games AS a
    INNER JOIN seat_games AS b ON b.match_id = a.match_id AND b.seat <> a.seat
),
cross_archetype AS (
    SELECT archetype, archetype_name, opponent, opponent_name, FALSE AS is_mirror,
           COUNT(*) AS n, SUM(drew) AS draws, SUM(lost) AS losses, SUM(won) AS wins
    FROM pairs
    WHERE archetype <> opponent
    GROUP BY archetype, archetype_name, opponent, opponent_name
),
mirror AS (
    SELECT archetype, archetype_name, opponent, opponent_name, TRUE AS is_mirror,
           COUNT(DISTINCT match_id) AS n,
           COUNT(DISTINCT CASE WHEN drew = 1 THEN match_id END) AS draws,
           CAST(NULL AS BIGINT) AS losses, CAST(NULL AS BIGINT) AS wins
    FROM pairs
    WHERE archetype = opponent
    GROUP BY archetype, archetype_name, opponent, opponent_name
),
matchup_rows AS (
    SELECT * FROM cross_archetype
    UNION ALL
    SELECT * FROM mirror
)
SELECT archetype, archetype_name, opponent, opponent_name, is_mirror, n, draws, losses, wins
FROM matchup_rows
WHERE n >= COALESCE($min_sample, 0)
