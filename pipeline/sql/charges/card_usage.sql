-- Model: n_c, the registered decks of each epoch holding at least one copy of a card (CH-2.4).
-- Sovereigns and characters are cards too (CH-2.3); evolutions count as their base card
-- (CH-2.10), through the card -> base_card mapping the game supplies; only the cards of the
-- charged sections count (charges__sections, from cards_registered's card list).
-- Grain: one row per (epoch, base card) held by at least one deck of that epoch.
-- Inputs: charges__tournament_epochs (tournament, epoch), the result of tournament_epochs.sql;
--         charges__card_bases (card, base_card), one row per card id of cards_registered.sql.
-- Parameters: game, format.
WITH deck_lines AS (
    SELECT
        te.epoch,
        m.tournament,
        s.player,
        d.deck_id,
        cb.base_card
    FROM deck_cards AS dc
    INNER JOIN decks AS d ON d.match_id = dc.match_id AND d.seat = dc.seat
    INNER JOIN seats AS s ON s.match_id = dc.match_id AND s.seat = dc.seat
    INNER JOIN matches AS m ON m.match_id = dc.match_id
    INNER JOIN charges__tournament_epochs AS te ON te.tournament = m.tournament
    INNER JOIN charges__card_bases AS cb ON cb.card = dc.card
    WHERE dc.game = $game
      AND m.game = $game
      AND m.format = $format
      AND dc.copies > 0
),

registered_cards AS (
    SELECT DISTINCT epoch, tournament, player, deck_id, base_card
    FROM deck_lines
)

SELECT
    epoch,
    base_card AS card,
    COUNT(*) AS decks
FROM registered_cards
GROUP BY epoch, base_card
ORDER BY epoch, card
