-- model: stg_scope (staging over stg_matches: the report's scope, no rename, no aggregate)
-- grain: one row per match of $game in scope: $format (NULL = all), match_date from $date_from
-- to $date_to (UTC days, inclusive; NULL = unbounded)
-- source: stg_matches
-- The one home of the scope filter: every model reads its matches through it, and the
-- parameters stay bound where the models inline it. match_key numbers the matches in scope
-- (1, 2, ... by match_id): a join or a GROUP BY on an integer, not on the match id text.
SELECT
    match_id,
    ROW_NUMBER() OVER (ORDER BY match_id) AS match_key,
    format,
    ruleset,
    ruleset_version,
    match_date,
    first_seat,
    winner_seat,
    turns
FROM stg_matches
WHERE game = $game
  AND ($format IS NULL OR format = $format)
  AND ($date_from IS NULL OR match_date >= $date_from)
  AND ($date_to IS NULL OR match_date <= $date_to)
