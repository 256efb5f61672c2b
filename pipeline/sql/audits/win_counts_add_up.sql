-- must hold: per game, the seats add up to the matches: as many seat rows as the matches say
-- they had seats, as many 'draw' results as the drawn matches had seats, and no result but
-- win, loss or draw.
-- grain: one row per offending game.
WITH per_match AS (
    SELECT
        game,
        count(*) AS matches,
        sum(seats) AS seats,
        sum(CASE WHEN is_draw THEN seats ELSE 0 END) AS drawn_seats
    FROM matches
    GROUP BY game
),
per_seat AS (
    SELECT
        game,
        count(*) AS seat_rows,
        sum(CASE WHEN result = 'draw' THEN 1 ELSE 0 END) AS draws,
        sum(CASE WHEN result IN ('win', 'loss', 'draw') THEN 0 ELSE 1 END) AS other_results
    FROM seats
    GROUP BY game
)
SELECT
    coalesce(m.game, s.game) AS game,
    coalesce(m.matches, 0) AS matches,
    coalesce(m.seats, 0) AS seats,
    coalesce(s.seat_rows, 0) AS seat_rows,
    coalesce(m.drawn_seats, 0) AS drawn_seats,
    coalesce(s.draws, 0) AS draws,
    coalesce(s.other_results, 0) AS other_results
FROM per_match AS m
FULL OUTER JOIN per_seat AS s ON s.game = m.game
WHERE coalesce(s.seat_rows, 0) <> coalesce(m.seats, 0)
   OR coalesce(s.draws, 0) <> coalesce(m.drawn_seats, 0)
   OR coalesce(s.other_results, 0) > 0
