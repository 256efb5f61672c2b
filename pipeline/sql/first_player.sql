-- model: first_player
-- grain: one row per format of $game in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- The first seat's record: matches, its wins, losses and the draws. A draw counts as not a
-- win, so a fair game with many draws shows a first-player win rate under one half; read it
-- beside decided_first_player_win_rate, the first seat's share of the decided matches.
-- rate: first_player_win_rate = first_wins / matches
-- rate: decided_first_player_win_rate = first_wins / decided
-- order: format
WITH scope AS (
    SELECT match_id, format
    FROM stg_matches
    WHERE game = $game
      AND ($format IS NULL OR format = $format)
      AND ($date_from IS NULL OR match_date >= $date_from)
      AND ($date_to IS NULL OR match_date <= $date_to)
),
first_seats AS (
    SELECT m.format, s.result
    FROM stg_seats AS s
    INNER JOIN scope AS m ON m.match_id = s.match_id
    WHERE s.game = $game
      AND s.is_first
)
SELECT
    format,
    COUNT(*) AS matches,
    SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END) AS draws,
    SUM(CASE WHEN result = 'loss' THEN 1 ELSE 0 END) AS first_losses,
    SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END) AS first_wins,
    SUM(CASE WHEN result = 'draw' THEN 0 ELSE 1 END) AS decided
FROM first_seats
GROUP BY format
