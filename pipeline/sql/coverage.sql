-- model: coverage
-- grain: one row per (format, ruleset, ruleset_version) of $game in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- What a report rests on: how many matches, from which day to which, under which rules, and
-- how they ended (draws, the average length in turns).
-- rate: draw_rate = draws / matches
-- order: format, ruleset, ruleset_version
WITH scope AS (
    SELECT match_id, format, ruleset, ruleset_version, match_date, winner_seat, turns
    FROM stg_matches
    WHERE game = $game
      AND ($format IS NULL OR format = $format)
      AND ($date_from IS NULL OR match_date >= $date_from)
      AND ($date_to IS NULL OR match_date <= $date_to)
)
SELECT
    format,
    ruleset,
    ruleset_version,
    COUNT(*) AS matches,
    MIN(match_date) AS first_day,
    MAX(match_date) AS last_day,
    SUM(CASE WHEN winner_seat IS NULL THEN 1 ELSE 0 END) AS draws,
    AVG(CAST(turns AS DOUBLE)) AS avg_turns
FROM scope
GROUP BY format, ruleset, ruleset_version
