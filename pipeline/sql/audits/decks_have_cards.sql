-- must hold: every seat's deck has card lines, one line per card (its copies in one row: no
-- card sits in two sections, which the deck rules of both games forbid), each with at least
-- one copy, all carrying the seat's deck_id. card_usage counts a deck line as a deck.
-- grain: one row per offending seat.
SELECT
    s.match_id,
    s.seat,
    s.deck_id,
    count(d.card) AS lines,
    count(DISTINCT d.card) AS cards,
    sum(d.copies) AS copies,
    min(d.copies) AS fewest_copies,
    count(DISTINCT d.deck_id) AS deck_ids
FROM seats AS s
LEFT JOIN deck_cards AS d ON d.match_id = s.match_id AND d.seat = s.seat
GROUP BY s.match_id, s.seat, s.deck_id
HAVING count(d.card) = 0
    OR count(d.card) <> count(DISTINCT d.card)
    OR min(d.copies) < 1
    OR count(DISTINCT d.deck_id) <> 1
    OR min(d.deck_id) <> s.deck_id
