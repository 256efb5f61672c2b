-- model: stg_seats (staging: rename and cast only; no filter, no aggregate)
-- grain: one row per seat of a match (a "seat-game": one deck played in one match)
-- source: seats (pipeline/schema.py SEATS)
SELECT
    match_id,
    game,
    month,
    CAST(seat AS INTEGER) AS seat,
    player,
    deck_id,
    deck_name,
    faction,
    leader,
    is_first,
    result
FROM seats
