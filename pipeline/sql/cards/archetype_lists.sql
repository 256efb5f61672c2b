-- model: archetype_lists
-- grain: one row per (deck list, card) of the distinct deck lists played in the matches in
-- scope, the cards of the sections that make an archetype
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- input: archetype_sections = pipeline.archetypes:sections_table
-- A deck list is a deck_id (the content hash of the list ingest computed), whatever name the
-- player gave it; decks counts the seat-games that played it (rollup_deck_names). A deck_id is
-- one list wherever it is played, so its lines are read once, from any one of its matches:
-- those rollup_deck_lines holds of the least match id among its first matches of a day in
-- scope (first_match of rollup_deck_names; a match is of one day and format, so its id names
-- the lines to read). What pipeline.archetypes clusters into archetypes: one list once,
-- weighted by how often played, by the cards of its archetype_sections (GameInfo's: not the
-- resource piles every deck fills alike; every section for a game that names none).
-- order: deck_id, card
WITH plays AS (
    SELECT
        deck_id,
        MIN(faction) AS faction,
        CAST(SUM(seat_games) AS BIGINT) AS decks,
        MIN(first_match) AS first_match
    FROM rollup_deck_names
    WHERE deck_id IS NOT NULL
    GROUP BY deck_id
)
SELECT
    p.deck_id,
    p.faction,
    p.decks,
    l.section,
    l.card,
    l.card_name,
    CAST(l.copies AS BIGINT) AS copies
FROM plays AS p
INNER JOIN rollup_deck_lines AS l ON l.deck_id = p.deck_id AND l.first_match = p.first_match
WHERE l.section IN (SELECT section FROM archetype_sections)
   OR NOT EXISTS (SELECT 1 FROM archetype_sections)
