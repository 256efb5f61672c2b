-- Model: N, the decks registered in each epoch (CH-2.3, CH-2.4). A registration is a distinct
-- (tournament, player, deck_id): a deck counts once per tournament however many matches it plays.
-- Grain: one row per epoch with at least one registered deck.
-- Inputs: charges__tournament_epochs (tournament, epoch), the result of tournament_epochs.sql.
-- Parameters: game, format.
WITH registrations AS (
    SELECT DISTINCT
        te.epoch,
        m.tournament,
        s.player,
        d.deck_id
    FROM seats AS s
    INNER JOIN decks AS d ON d.match_id = s.match_id AND d.seat = s.seat
    INNER JOIN matches AS m ON m.match_id = s.match_id
    INNER JOIN charges__tournament_epochs AS te ON te.tournament = m.tournament
    WHERE s.game = $game
      AND d.game = $game
      AND m.game = $game
      AND m.format = $format
)

SELECT
    epoch,
    COUNT(*) AS decks
FROM registrations
GROUP BY epoch
ORDER BY epoch
