-- model: stg_deck_cards (staging: rename and cast only; no filter, no aggregate)
-- grain: one row per card of a seat's deck list: a card sits in one section, all its copies
-- on one line (audit decks_have_cards), so the metric models count a line as a deck
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
