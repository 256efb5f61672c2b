-- must hold: per game, seats record as many wins and as many losses as there are decided
-- matches, and twice as many draws as drawn matches.
-- grain: one row per offending game.
WITH per_match AS (
    SELECT
        game,
        count(*) AS matches,
        sum(CASE WHEN winner_seat IS NULL THEN 1 ELSE 0 END) AS drawn
    FROM matches
    GROUP BY game
),
per_seat AS (
    SELECT
        game,
        sum(CASE WHEN result = 'win' THEN 1 ELSE 0 END) AS wins,
        sum(CASE WHEN result = 'loss' THEN 1 ELSE 0 END) AS losses,
        sum(CASE WHEN result = 'draw' THEN 1 ELSE 0 END) AS draws
    FROM seats
    GROUP BY game
)
SELECT
    coalesce(m.game, s.game) AS game,
    coalesce(m.matches, 0) AS matches,
    coalesce(m.drawn, 0) AS drawn,
    coalesce(s.wins, 0) AS wins,
    coalesce(s.losses, 0) AS losses,
    coalesce(s.draws, 0) AS draws
FROM per_match AS m
FULL OUTER JOIN per_seat AS s ON s.game = m.game
WHERE coalesce(s.wins, 0) <> coalesce(m.matches, 0) - coalesce(m.drawn, 0)
   OR coalesce(s.losses, 0) <> coalesce(m.matches, 0) - coalesce(m.drawn, 0)
   OR coalesce(s.draws, 0) <> 2 * coalesce(m.drawn, 0)
