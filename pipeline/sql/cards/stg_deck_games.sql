-- model: stg_deck_games (staging over stg_seat_games and stg_decks: no aggregate)
-- grain: one row per seat of a match in scope with its deck (a "deck-game": one deck played
-- in one match), one row a seat (audit decks_one_per_seat)
-- source: stg_seat_games, stg_decks
-- The seat-game's result and turn order (won, lost, drew, went_first) beside its deck. No
-- window here: the mirror flags live in stg_seat_mirrors, so models that do not need them
-- (matchups) do not pay for them.
SELECT
    g.match_id,
    g.format,
    g.match_date,
    g.seat,
    d.deck_id,
    d.deck_name,
    d.faction,
    d.leader,
    g.is_first,
    g.result,
    g.went_first,
    g.won,
    g.lost,
    g.drew
FROM stg_seat_games AS g
INNER JOIN stg_decks AS d ON d.match_id = g.match_id AND d.seat = g.seat
WHERE d.game = $game
