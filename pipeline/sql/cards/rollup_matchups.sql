-- model: rollup_matchups (rollup: stored at ingest, see pipeline.rollups)
-- grain: one row per (format, match day, faction, opponent faction) met in $game's matches in
-- scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- source: stg_deck_games
-- What matchups sums over a scope, in its words (see there). A match falls on one day, so its
-- mirror is counted in one row: the distinct matches of the rows add up.
WITH seat_games AS (
    SELECT match_id, format, match_date, seat, faction, won, lost, drew
    FROM stg_deck_games
),
pairs AS (
    SELECT
        a.match_id,
        a.format,
        a.match_date,
        a.faction,
        b.faction AS opponent_faction,
        a.won,
        a.lost,
        a.drew
    FROM seat_games AS a
    INNER JOIN seat_games AS b ON b.match_id = a.match_id AND b.seat <> a.seat
),
cross_faction AS (
    SELECT
        format,
        match_date,
        faction,
        opponent_faction,
        FALSE AS is_mirror,
        COUNT(*) AS n,
        SUM(drew) AS draws,
        SUM(lost) AS losses,
        SUM(won) AS wins
    FROM pairs
    WHERE faction <> opponent_faction
    GROUP BY format, match_date, faction, opponent_faction
),
mirror AS (
    SELECT
        format,
        match_date,
        faction,
        opponent_faction,
        TRUE AS is_mirror,
        COUNT(DISTINCT match_id) AS n,
        COUNT(DISTINCT CASE WHEN drew = 1 THEN match_id END) AS draws,
        CAST(NULL AS BIGINT) AS losses,
        CAST(NULL AS BIGINT) AS wins
    FROM pairs
    WHERE faction = opponent_faction
    GROUP BY format, match_date, faction, opponent_faction
)
SELECT * FROM cross_faction
UNION ALL
SELECT * FROM mirror
