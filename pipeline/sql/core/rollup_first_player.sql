-- model: rollup_first_player (rollup: stored at ingest, see pipeline.rollups)
-- grain: one row per (format, match day) of $game's matches in scope where a seat plays first
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- source: stg_seat_games
-- What first_player sums over a scope, in its words (see there): the first seat's matches,
-- draws, losses, wins and decided matches of each day.
SELECT
    format,
    match_date,
    COUNT(*) AS matches,
    SUM(drew) AS draws,
    SUM(lost) AS first_losses,
    SUM(won) AS first_wins,
    SUM(1 - drew) AS decided
FROM stg_seat_games
WHERE is_first
GROUP BY format, match_date
