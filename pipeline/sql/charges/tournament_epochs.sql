-- Model: the tournaments of one game and format in play order, each placed in its epoch (CH-2.1).
-- Grain: one row per tournament.
-- Parameters: game, format, window_size (tournaments per epoch).
-- A tournament starts at its earliest match; ties are broken by tournament id. Matches outside
-- any tournament (no tournament id) never count toward charges.
WITH tournament_matches AS (
    SELECT m.tournament, m.started_at
    FROM matches AS m
    WHERE m.game = $game
      AND m.format = $format
      AND m.tournament IS NOT NULL
),

tournaments AS (
    SELECT
        tournament,
        MIN(started_at) AS started_at,
        MAX(started_at) AS last_match_at
    FROM tournament_matches
    GROUP BY tournament
),

ordered AS (
    SELECT
        tournament,
        started_at,
        last_match_at,
        ROW_NUMBER() OVER (ORDER BY started_at, tournament) AS ordinal
    FROM tournaments
)

SELECT
    tournament,
    started_at,
    last_match_at,
    ordinal,
    CAST(FLOOR((ordinal - 1) / CAST($window_size AS DOUBLE)) AS INTEGER) AS epoch
FROM ordered
ORDER BY ordinal
