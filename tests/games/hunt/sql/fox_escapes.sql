-- model: fox_escapes
-- grain: one row per number of hounds (seats - 1) in the hunts of $game in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- source: stg_scope, hunt_chases (the Hunt's own table: one row per round played)
-- How often the fox gets away, by the size of the pack: escapes (the fox's side won, HUNT-8),
-- catches (the hounds won, HUNT-6 or cornered, HUNT-6.2) and draws (a catch in the last round,
-- HUNT-9); sighted: hunts in which the fox was sighted at least once; avg_rounds: rounds played.
-- rate: escape_rate = escapes / hunts
-- rate: catch_rate = catches / hunts
-- order: hounds
WITH rounds AS (
    SELECT
        match_id,
        COUNT(*) AS rounds,
        MAX(CASE WHEN sighted THEN 1 ELSE 0 END) AS sighted
    FROM hunt_chases
    WHERE game = $game
    GROUP BY match_id
)
SELECT
    m.seats - 1 AS hounds,
    COUNT(*) AS hunts,
    SUM(CASE WHEN m.winning_side = 'fox' THEN 1 ELSE 0 END) AS escapes,
    SUM(CASE WHEN m.winning_side = 'hounds' THEN 1 ELSE 0 END) AS catches,
    SUM(CASE WHEN m.is_draw THEN 1 ELSE 0 END) AS draws,
    SUM(COALESCE(r.sighted, 0)) AS sighted,
    AVG(CAST(COALESCE(r.rounds, 0) AS DOUBLE)) AS avg_rounds
FROM stg_scope AS m
LEFT JOIN rounds AS r ON r.match_id = m.match_id
GROUP BY m.seats - 1
