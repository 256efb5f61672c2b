-- model: stg_scope (staging over stg_matches: the report's scope, no rename, no aggregate)
-- grain: one row per match of $game in scope: $format (NULL = all), match_date from $date_from
-- to $date_to (UTC days, inclusive; NULL = unbounded)
-- source: stg_matches
-- The one home of the scope filter: every model reads its matches through it, and the
-- parameters stay bound where the models inline it. No window here (it would be paid by every
-- model): card_usage numbers the matches it needs itself.
SELECT
    match_id,
    format,
    ruleset,
    ruleset_version,
    scenario,
    match_date,
    first_seat,
    seats,
    is_draw,
    winning_side,
    turns
FROM stg_matches
WHERE game = $game
  AND ($format IS NULL OR format = $format)
  AND ($date_from IS NULL OR match_date >= $date_from)
  AND ($date_to IS NULL OR match_date <= $date_to)
