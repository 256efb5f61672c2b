-- must hold: every deck (a decks row) has card lines, one line per card (its copies in one
-- row: no card sits in two sections, which the deck rules of both games forbid), each with at
-- least one copy, all carrying the deck's deck_id. card_usage counts a deck line as a deck.
-- grain: one row per offending deck.
SELECT
    k.match_id,
    k.seat,
    k.deck_id,
    count(d.card) AS lines,
    count(DISTINCT d.card) AS cards,
    sum(d.copies) AS copies,
    min(d.copies) AS fewest_copies,
    count(DISTINCT d.deck_id) AS deck_ids
FROM decks AS k
LEFT JOIN deck_cards AS d ON d.match_id = k.match_id AND d.seat = k.seat
GROUP BY k.match_id, k.seat, k.deck_id
HAVING count(d.card) = 0
    OR count(d.card) <> count(DISTINCT d.card)
    OR min(d.copies) < 1
    OR count(DISTINCT d.deck_id) <> 1
    OR min(d.deck_id) <> k.deck_id
