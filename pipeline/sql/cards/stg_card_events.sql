-- model: stg_card_events (staging: rename and cast only; no filter, no aggregate)
-- grain: one row per thing that happened to a card (kind: opening_hand, drawn, played,
-- destroyed, hit); seat is the card's controller
-- source: card_events (pipeline/schema.py CARD_EVENTS)
SELECT
    match_id,
    game,
    month,
    CAST(seq AS INTEGER) AS seq,
    CAST(turn AS INTEGER) AS turn,
    CAST(seat AS INTEGER) AS seat,
    card,
    kind,
    target,
    CAST(amount AS INTEGER) AS amount
FROM card_events
