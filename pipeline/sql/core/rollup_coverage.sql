-- model: rollup_coverage (rollup: stored at ingest, see pipeline.rollups)
-- grain: one row per (format, match day, ruleset, ruleset_version) of $game's matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- source: stg_scope
-- What coverage sums over a scope, in its words (see there): each day's matches and draws, and
-- the turns of the matches that count them (timed_matches: turns not NULL), whose sum over
-- the sum of timed matches is the average length. The first and last day of a scope are the
-- first and last match_date of its rows: a row is a day with matches.
SELECT
    format,
    match_date,
    ruleset,
    ruleset_version,
    COUNT(*) AS matches,
    SUM(CASE WHEN is_draw THEN 1 ELSE 0 END) AS draws,
    SUM(turns) AS turns,
    COUNT(turns) AS timed_matches
FROM stg_scope
GROUP BY format, match_date, ruleset, ruleset_version
