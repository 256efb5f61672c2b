-- must hold: a match's first_seat, when set, is the one seat marked is_first; a match where no
-- seat plays first (first_seat null) has no seat marked.
-- grain: one row per offending match.
WITH marked AS (
    SELECT
        m.match_id,
        m.first_seat,
        sum(CASE WHEN s.is_first THEN 1 ELSE 0 END) AS first_seats,
        max(CASE WHEN s.is_first THEN s.seat END) AS marked_first
    FROM matches AS m
    LEFT JOIN seats AS s ON s.match_id = m.match_id
    GROUP BY m.match_id, m.first_seat
)
SELECT match_id, first_seat, first_seats, marked_first
FROM marked
WHERE (first_seat IS NULL AND coalesce(first_seats, 0) <> 0)
   OR (first_seat IS NOT NULL AND (coalesce(first_seats, 0) <> 1
                                   OR marked_first IS NULL OR marked_first <> first_seat))
