-- model: stg_matches (staging: rename and cast only; no filter, no aggregate)
-- grain: one row per match
-- source: matches (pipeline/schema.py MATCHES)
-- match_date is the UTC calendar day the match started: the runner sets the session time zone
-- to UTC (DuckDB: SET TimeZone; Spark: spark.sql.session.timeZone), so the cast is the same
-- on every engine and every machine. seats: how many seats the match had; is_draw: every seat
-- drew; winning_side: the side that won, when the outcome names one; first_seat: NULL where
-- no seat plays first.
SELECT
    match_id,
    game,
    month,
    format,
    ruleset,
    CAST(ruleset_version AS INTEGER) AS ruleset_version,
    scenario,
    CAST(started_at AS DATE) AS match_date,
    CAST(first_seat AS INTEGER) AS first_seat,
    CAST(seats AS INTEGER) AS seats,
    is_draw,
    winning_side,
    CAST(turns AS INTEGER) AS turns
FROM matches
