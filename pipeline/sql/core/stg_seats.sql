-- model: stg_seats (staging: rename and cast only; no filter, no aggregate)
-- grain: one row per seat of a match (a "seat-game": one seat played in one match)
-- source: seats (pipeline/schema.py SEATS)
-- side and role: NULL in games whose seats are all alike; setup_id and setup_name: what the
-- seat brought (a deck list for the card games: setup_id is its deck_id).
SELECT
    match_id,
    game,
    month,
    CAST(seat AS INTEGER) AS seat,
    player,
    side,
    role,
    setup_id,
    setup_name,
    is_first,
    result
FROM seats
