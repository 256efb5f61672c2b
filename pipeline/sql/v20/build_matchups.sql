-- model: build_matchups
-- grain: one row per ordered (build, opponent_build) pair met in the fights of $game in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep pairs met at least this often; NULL = 0)
-- source: stg_seat_games, stg_seats
-- build: a side's party (seats.setup_name). Counts are from the build's side: (A, B) and
-- (B, A) mirror each other, whichever side each played. A draw counts as not a win. A mirror
-- (A, A) has one row counted per fight (n fights and their draws); its wins, losses and win
-- rate are NULL: a build beats itself exactly as often as it loses to itself.
-- rate: win_rate = wins / n
-- order: build, opponent_build
WITH sides AS (
    SELECT g.match_id, g.seat, st.setup_name AS build, g.won, g.lost, g.drew
    FROM stg_seat_games AS g
    INNER JOIN stg_seats AS st ON st.match_id = g.match_id AND st.seat = g.seat
),
pairs AS (
    SELECT a.match_id, a.build, b.build AS opponent_build, a.won, a.lost, a.drew
    FROM sides AS a
    INNER JOIN sides AS b ON b.match_id = a.match_id AND b.seat <> a.seat
),
cross_build AS (
    SELECT
        build,
        opponent_build,
        FALSE AS is_mirror,
        COUNT(*) AS n,
        SUM(drew) AS draws,
        SUM(lost) AS losses,
        SUM(won) AS wins
    FROM pairs
    WHERE build <> opponent_build
    GROUP BY build, opponent_build
),
mirror AS (
    SELECT
        build,
        opponent_build,
        TRUE AS is_mirror,
        COUNT(DISTINCT match_id) AS n,
        COUNT(DISTINCT CASE WHEN drew = 1 THEN match_id END) AS draws,
        CAST(NULL AS BIGINT) AS losses,
        CAST(NULL AS BIGINT) AS wins
    FROM pairs
    WHERE build = opponent_build
    GROUP BY build, opponent_build
),
matchup_rows AS (
    SELECT * FROM cross_build
    UNION ALL
    SELECT * FROM mirror
)
SELECT build, opponent_build, is_mirror, n, draws, losses, wins
FROM matchup_rows
WHERE n >= COALESCE($min_sample, 0)
