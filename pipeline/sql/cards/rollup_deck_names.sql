-- model: rollup_deck_names (rollup: stored at ingest, see pipeline.rollups)
-- grain: one row per (format, match day, faction, deck name, deck list) of the deck-games of
-- $game in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- source: stg_seat_mirrors
-- The deck-games of each deck list under each name its players gave it: what deck_archetypes
-- sums by name and archetype_lists by list. Each count is a sum of flags made within one match
-- (pipeline.rollups). seat_games: every deck-game; games, draws, losses, wins: those outside
-- archetype mirrors (another seat of the match plays the same deck_name of the same faction);
-- mirror_matches: an archetype mirror counted once, on the first seat of the name. first_match:
-- the row's first match (by id), what names the lines rollup_deck_lines read the list from
-- (archetype_lists reads a list's lines once, from its first match in scope).
WITH seat_games AS (
    SELECT
        g.*,
        ROW_NUMBER() OVER (PARTITION BY g.match_id, g.faction, g.deck_name ORDER BY g.seat)
            AS nth_of_name
    FROM stg_seat_mirrors AS g
)
SELECT
    format,
    match_date,
    faction,
    deck_name,
    deck_id,
    COUNT(*) AS seat_games,
    SUM(1 - archetype_mirror) AS games,
    SUM((1 - archetype_mirror) * drew) AS draws,
    SUM((1 - archetype_mirror) * lost) AS losses,
    SUM((1 - archetype_mirror) * won) AS wins,
    SUM(CASE WHEN archetype_mirror = 1 AND nth_of_name = 1 THEN 1 ELSE 0 END) AS mirror_matches,
    MIN(match_id) AS first_match
FROM seat_games
GROUP BY format, match_date, faction, deck_name, deck_id
