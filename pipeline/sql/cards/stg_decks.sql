-- model: stg_decks (staging: rename and cast only; no filter, no aggregate)
-- grain: one row per seat of a match of a game with decks: the deck that seat played
-- source: decks (pipeline/schema.py DECKS)
-- faction and leader in the game's words: Vitorian, the Sovereign's colour and card id;
-- Eredan, the deck's guild and its three characters (docs/lake.md).
SELECT
    match_id,
    game,
    month,
    CAST(seat AS INTEGER) AS seat,
    deck_id,
    deck_name,
    faction,
    leader
FROM decks
