-- must hold: every row of seats, decks, deck_cards and card_events belongs to a match in
-- matches, in the same partition (game, month) as that match (a game's own tables have an
-- audit of their own each, <table>_reference_matches, made by pipeline.audits).
-- grain: one row per fact table and offending match id.
WITH facts AS (
    SELECT 'seats' AS fact_table, match_id, game, month FROM seats
    UNION ALL
    SELECT 'decks' AS fact_table, match_id, game, month FROM decks
    UNION ALL
    SELECT 'deck_cards' AS fact_table, match_id, game, month FROM deck_cards
    UNION ALL
    SELECT 'card_events' AS fact_table, match_id, game, month FROM card_events
)
SELECT f.fact_table, f.match_id, f.game, f.month, count(*) AS fact_rows
FROM facts AS f
LEFT JOIN matches AS m ON m.match_id = f.match_id
WHERE m.match_id IS NULL OR m.game <> f.game OR m.month <> f.month
GROUP BY f.fact_table, f.match_id, f.game, f.month
