-- must hold: in a game with decks (game_capabilities 'decks', from engine.registry) every seat
-- has exactly one decks row, whose deck_id is the seat's setup_id; every decks row is a seat
-- of its match, of a game with decks. The card models join a seat-game to its deck one to one.
-- grain: one row per offending seat.
WITH seat_decks AS (
    SELECT
        s.match_id,
        s.game,
        s.seat,
        s.setup_id,
        count(d.seat) AS decks,
        min(d.deck_id) AS deck_id
    FROM seats AS s
    INNER JOIN game_capabilities AS c ON c.game = s.game AND c.capability = 'decks'
    LEFT JOIN decks AS d ON d.match_id = s.match_id AND d.seat = s.seat
    GROUP BY s.match_id, s.game, s.seat, s.setup_id
),
offending_seats AS (
    SELECT match_id, game, seat, setup_id, decks, deck_id, 'seat' AS found
    FROM seat_decks
    WHERE decks <> 1 OR deck_id <> setup_id OR setup_id IS NULL
),
stray_decks AS (
    SELECT d.match_id, d.game, d.seat, s.setup_id, 1 AS decks, d.deck_id, 'deck' AS found
    FROM decks AS d
    LEFT JOIN seats AS s ON s.match_id = d.match_id AND s.seat = d.seat
    LEFT JOIN game_capabilities AS c ON c.game = d.game AND c.capability = 'decks'
    WHERE s.match_id IS NULL OR c.game IS NULL
)
SELECT * FROM offending_seats
UNION ALL
SELECT * FROM stray_decks
