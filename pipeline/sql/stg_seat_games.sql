-- model: stg_seat_games (staging over stg_seats and stg_scope: no aggregate)
-- grain: one row per seat of a match in scope (a "seat-game": one deck played in one match)
-- source: stg_seats, stg_scope
-- won, lost, drew, went_first: the seat's result and turn order as 0/1, to be summed. A draw is
-- not a win. No window here: the mirror flags live in stg_seat_mirrors, so models that do not
-- need them (card_usage, matchups, first_player) do not pay for them.
SELECT
    s.match_id,
    m.format,
    s.seat,
    s.deck_id,
    s.deck_name,
    s.faction,
    s.is_first,
    s.result,
    CASE WHEN s.is_first THEN 1 ELSE 0 END AS went_first,
    CASE WHEN s.result = 'win' THEN 1 ELSE 0 END AS won,
    CASE WHEN s.result = 'loss' THEN 1 ELSE 0 END AS lost,
    CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END AS drew
FROM stg_seats AS s
INNER JOIN stg_scope AS m ON m.match_id = s.match_id
WHERE s.game = $game
