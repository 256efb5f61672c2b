-- must hold: in a game with decks (game_capabilities 'decks'), the card of every card event is
-- in the deck of the seat it is credited to (the controller; for destroyed, the owner): facts
-- never credit a card to the wrong seat.
-- grain: one row per offending card event.
SELECT e.match_id, e.seq, e.seat, e.card, e.kind
FROM card_events AS e
INNER JOIN game_capabilities AS c ON c.game = e.game AND c.capability = 'decks'
LEFT JOIN deck_cards AS d
    ON d.match_id = e.match_id AND d.seat = e.seat AND d.card = e.card
WHERE d.card IS NULL
