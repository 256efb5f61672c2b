-- model: first_player
-- grain: one row per format of $game in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- The first seat's record: matches, its wins, losses and the draws. A draw counts as not a
-- win, so a fair game with many draws shows a first-player win rate under one half; read it
-- beside decided_first_player_win_rate, the first seat's share of the decided matches. A
-- match where no seat plays first (first_seat NULL, no seat is_first) is left out. The
-- days' sums of rollup_first_player.
-- rate: first_player_win_rate = first_wins / matches
-- rate: decided_first_player_win_rate = first_wins / decided
-- order: format
SELECT
    format,
    CAST(SUM(matches) AS BIGINT) AS matches,
    SUM(draws) AS draws,
    SUM(first_losses) AS first_losses,
    SUM(first_wins) AS first_wins,
    SUM(decided) AS decided
FROM rollup_first_player
GROUP BY format
