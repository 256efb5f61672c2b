-- must hold: every match has exactly two seats, 0 and 1, and exactly one of them played
-- first: the match's first_seat.
-- grain: one row per offending match.
WITH seat_counts AS (
    SELECT
        m.match_id,
        m.first_seat,
        count(s.seat) AS seats,
        count(DISTINCT s.seat) AS distinct_seats,
        min(s.seat) AS low_seat,
        max(s.seat) AS high_seat,
        sum(CASE WHEN s.is_first THEN 1 ELSE 0 END) AS first_seats,
        max(CASE WHEN s.is_first THEN s.seat END) AS marked_first
    FROM matches AS m
    LEFT JOIN seats AS s ON s.match_id = m.match_id
    GROUP BY m.match_id, m.first_seat
)
SELECT match_id, seats, low_seat, high_seat, first_seat, first_seats, marked_first
FROM seat_counts
WHERE seats <> 2
   OR distinct_seats <> 2
   OR low_seat <> 0
   OR high_seat <> 1
   OR first_seats <> 1
   OR first_seat IS NULL
   OR marked_first <> first_seat
