-- must hold: every row of seats, deck_cards and card_events belongs to a match in matches, in
-- the same partition (game, month) as that match.
-- grain: one row per fact table and offending match id.
SELECT 'seats' AS fact_table, f.match_id, f.game, f.month, count(*) AS fact_rows
FROM seats AS f
LEFT JOIN matches AS m ON m.match_id = f.match_id
WHERE m.match_id IS NULL OR m.game <> f.game OR m.month <> f.month
GROUP BY f.match_id, f.game, f.month
UNION ALL
SELECT 'deck_cards' AS fact_table, f.match_id, f.game, f.month, count(*) AS fact_rows
FROM deck_cards AS f
LEFT JOIN matches AS m ON m.match_id = f.match_id
WHERE m.match_id IS NULL OR m.game <> f.game OR m.month <> f.month
GROUP BY f.match_id, f.game, f.month
UNION ALL
SELECT 'card_events' AS fact_table, f.match_id, f.game, f.month, count(*) AS fact_rows
FROM card_events AS f
LEFT JOIN matches AS m ON m.match_id = f.match_id
WHERE m.match_id IS NULL OR m.game <> f.game OR m.month <> f.month
GROUP BY f.match_id, f.game, f.month
