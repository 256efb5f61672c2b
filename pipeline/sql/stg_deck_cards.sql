-- model: stg_deck_cards (staging: rename and cast only; no filter, no aggregate)
-- grain: one row per card line of a seat's deck list (a card may in principle sit in two
-- sections; the metric models sum its copies per seat-game)
-- source: deck_cards (pipeline/schema.py DECK_CARDS)
SELECT
    match_id,
    game,
    month,
    CAST(seat AS INTEGER) AS seat,
    deck_id,
    section,
    card,
    card_name,
    CAST(copies AS INTEGER) AS copies
FROM deck_cards
