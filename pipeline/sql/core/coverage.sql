-- model: coverage
-- grain: one row per (format, ruleset, ruleset_version) of $game in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- What a report rests on: how many matches, from which day to which, under which rules, and
-- how they ended (draws: every seat drew; the average length in turns).
-- rate: draw_rate = draws / matches
-- order: format, ruleset, ruleset_version
SELECT
    format,
    ruleset,
    ruleset_version,
    COUNT(*) AS matches,
    MIN(match_date) AS first_day,
    MAX(match_date) AS last_day,
    SUM(CASE WHEN is_draw THEN 1 ELSE 0 END) AS draws,
    AVG(CAST(turns AS DOUBLE)) AS avg_turns
FROM stg_scope
GROUP BY format, ruleset, ruleset_version
