-- Model: every card id found in the decks of one game and format's tournaments, with its name
-- as the lake recorded it (the input of the game's card -> base card mapping, CH-2.10).
-- Grain: one row per card id.
-- Inputs: charges__sections (section), the deck-list sections whose cards carry charges.
-- Parameters: game, format.
WITH tournament_deck_cards AS (
    SELECT dc.card, dc.card_name
    FROM deck_cards AS dc
    INNER JOIN charges__sections AS cs ON cs.section = dc.section
    INNER JOIN matches AS m ON m.match_id = dc.match_id
    WHERE dc.game = $game
      AND m.game = $game
      AND m.format = $format
      AND m.tournament IS NOT NULL
)

SELECT
    card,
    MIN(card_name) AS card_name
FROM tournament_deck_cards
GROUP BY card
ORDER BY card
