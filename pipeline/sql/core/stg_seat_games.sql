-- model: stg_seat_games (staging over stg_seats and stg_scope: no aggregate)
-- grain: one row per seat of a match in scope (a "seat-game": one seat played in one match),
-- with its match's format and day
-- source: stg_seats, stg_scope
-- won, lost, drew, went_first: the seat's result and turn order as 0/1, to be summed. A draw is
-- not a win. Every game has these; a card game's decks join them in stg_deck_games.
SELECT
    s.match_id,
    m.format,
    m.match_date,
    s.seat,
    s.side,
    s.role,
    s.setup_id,
    s.is_first,
    s.result,
    CASE WHEN s.is_first THEN 1 ELSE 0 END AS went_first,
    CASE WHEN s.result = 'win' THEN 1 ELSE 0 END AS won,
    CASE WHEN s.result = 'loss' THEN 1 ELSE 0 END AS lost,
    CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END AS drew
FROM stg_seats AS s
INNER JOIN stg_scope AS m ON m.match_id = s.match_id
WHERE s.game = $game
