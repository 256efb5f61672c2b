-- model: stg_matches (staging: rename and cast only; no filter, no aggregate)
-- grain: one row per match
-- source: matches (pipeline/schema.py MATCHES)
-- match_date is the UTC calendar day the match started: the runner sets the session time zone
-- to UTC (DuckDB: SET TimeZone; Spark: spark.sql.session.timeZone), so the cast is the same
-- on every engine and every machine.
SELECT
    match_id,
    game,
    month,
    format,
    ruleset,
    CAST(ruleset_version AS INTEGER) AS ruleset_version,
    CAST(started_at AS DATE) AS match_date,
    CAST(first_seat AS INTEGER) AS first_seat,
    CAST(winner_seat AS INTEGER) AS winner_seat,
    CAST(turns AS INTEGER) AS turns
FROM matches
