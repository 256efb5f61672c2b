-- model: rollup_deck_lines (rollup: stored at ingest, see pipeline.rollups)
-- grain: one row per (format, match day, deck list, section, card) of the deck lists of $game
-- played in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- source: stg_deck_games, stg_deck_cards
-- The lines of each deck list played that day, read from its first deck-game of the day (by
-- match and seat: first_match), repeated lines of a card merged. A deck_id hashes its list
-- (sections, cards, copies), so the lines of any day are the list's lines: archetype_lists reads
-- them once, those of the list's first match in scope (first_match of rollup_deck_names).
WITH played AS (
    SELECT
        format,
        match_date,
        deck_id,
        match_id,
        seat,
        ROW_NUMBER() OVER (PARTITION BY format, match_date, deck_id ORDER BY match_id, seat)
            AS nth
    FROM stg_deck_games
    WHERE deck_id IS NOT NULL
)
SELECT
    p.format,
    p.match_date,
    p.deck_id,
    p.match_id AS first_match,
    c.section,
    c.card,
    MIN(c.card_name) AS card_name,
    CAST(SUM(c.copies) AS BIGINT) AS copies
FROM played AS p
INNER JOIN stg_deck_cards AS c
    ON c.match_id = p.match_id AND c.seat = p.seat AND c.deck_id = p.deck_id
WHERE p.nth = 1
  AND c.game = $game
GROUP BY p.format, p.match_date, p.deck_id, p.match_id, c.section, c.card
