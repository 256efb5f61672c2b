-- model: coverage
-- grain: one row per (format, ruleset, ruleset_version) of $game in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- What a report rests on: how many matches, from which day to which, under which rules, and
-- how they ended (draws: every seat drew; the average length in turns). The days' sums of
-- rollup_coverage.
-- rate: draw_rate = draws / matches
-- order: format, ruleset, ruleset_version
SELECT
    format,
    ruleset,
    ruleset_version,
    CAST(SUM(matches) AS BIGINT) AS matches,
    MIN(match_date) AS first_day,
    MAX(match_date) AS last_day,
    SUM(draws) AS draws,
    CAST(SUM(turns) AS DOUBLE) / NULLIF(SUM(timed_matches), 0) AS avg_turns
FROM rollup_coverage
GROUP BY format, ruleset, ruleset_version
