-- must hold: a match id appears once in matches (ingest is idempotent and never overwrites).
-- grain: one row per duplicated match id.
SELECT match_id, count(*) AS copies
FROM matches
GROUP BY match_id
HAVING count(*) > 1
