-- must hold: a card event has a known kind, a seat of its match (0 to matches.seats - 1), a
-- record (seq) within the log and a turn within the match; opening_hand happens at turn 0,
-- drawn at turn 1 or later, and a hit removes at least one Defense card.
-- grain: one row per offending card event.
SELECT e.match_id, e.seq, e.turn, e.seat, e.card, e.kind, e.amount, m.seats, m.events, m.turns
FROM card_events AS e
JOIN matches AS m ON m.match_id = e.match_id
WHERE e.kind NOT IN ('opening_hand', 'drawn', 'played', 'destroyed', 'hit')
   OR e.seat IS NULL OR e.seat < 0 OR m.seats IS NULL OR e.seat >= m.seats
   OR e.card IS NULL
   OR e.seq IS NULL OR e.seq < 1 OR e.seq > m.events
   OR e.turn IS NULL OR e.turn < 0 OR e.turn > m.turns
   OR (e.kind = 'opening_hand' AND e.turn <> 0)
   OR (e.kind = 'drawn' AND e.turn < 1)
   OR (e.kind = 'hit' AND (e.amount IS NULL OR e.amount < 1))
