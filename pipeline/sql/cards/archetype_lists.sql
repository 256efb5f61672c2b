-- model: archetype_lists
-- grain: one row per (deck list, card) of the distinct deck lists played in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- A deck list is a deck_id (the content hash of the list ingest computed), whatever name the
-- player gave it; decks counts the seat-games that played it, and its lines are read from the
-- first of them (by match and seat): a deck_id is one list wherever it is played. What
-- pipeline.archetypes clusters into archetypes: one list once, weighted by how often played.
-- order: deck_id, card
WITH played AS (
    SELECT
        deck_id,
        faction,
        match_id,
        seat,
        COUNT(*) OVER (PARTITION BY deck_id) AS decks,
        ROW_NUMBER() OVER (PARTITION BY deck_id ORDER BY match_id, seat) AS nth
    FROM stg_deck_games
    WHERE deck_id IS NOT NULL
),
lists AS (
    SELECT deck_id, faction, decks, match_id, seat FROM played WHERE nth = 1
)
SELECT
    l.deck_id,
    l.faction,
    l.decks,
    c.section,
    c.card,
    MIN(c.card_name) AS card_name,
    SUM(c.copies) AS copies
FROM lists AS l
INNER JOIN stg_deck_cards AS c
    ON c.match_id = l.match_id AND c.seat = l.seat AND c.deck_id = l.deck_id
WHERE c.game = $game
GROUP BY l.deck_id, l.faction, l.decks, c.section, c.card
