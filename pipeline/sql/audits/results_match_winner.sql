-- must hold: a decided match has one seat with result 'win' (its winner_seat) and one with
-- 'loss'; a draw (winner_seat null) has two seats with 'draw'.
-- grain: one row per offending match.
WITH results AS (
    SELECT
        m.match_id,
        m.winner_seat,
        m.result_reason,
        sum(CASE WHEN s.result = 'win' THEN 1 ELSE 0 END) AS wins,
        sum(CASE WHEN s.result = 'loss' THEN 1 ELSE 0 END) AS losses,
        sum(CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END) AS draws,
        max(CASE WHEN s.result = 'win' THEN s.seat END) AS winning_seat
    FROM matches AS m
    JOIN seats AS s ON s.match_id = m.match_id
    GROUP BY m.match_id, m.winner_seat, m.result_reason
)
SELECT match_id, winner_seat, winning_seat, wins, losses, draws, result_reason
FROM results
WHERE NOT (
    (winner_seat IS NULL AND draws = 2 AND wins = 0 AND losses = 0)
    OR (winner_seat IS NOT NULL AND wins = 1 AND losses = 1 AND draws = 0
        AND winning_seat = winner_seat)
)
