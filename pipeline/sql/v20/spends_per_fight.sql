-- model: spends_per_fight
-- grain: one row per (character sheet, pool) of $game in the fights in scope; pool: blood or
--        willpower
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep sheets with at least this many fights)
-- source: stg_v20_character_games, v20_spends (one row per spend)
-- points: blood points (V20-10) or Willpower points (V20-11) spent, over every purpose
-- (celerity, heal, boost, appear_human, ignore_wounds, control, resist, success, abort);
-- points_per_fight: over all the sheet's fights, those with no spend included;
-- spending_fights: fights with at least one spend from the pool. Mortals cannot spend blood
-- (V20-3.5): their blood rows are 0.
-- rate: spending_rate = spending_fights / fights
-- order: sheet, pool
WITH pools AS (
    SELECT 'blood' AS pool
    UNION ALL
    SELECT 'willpower' AS pool
),
spent AS (
    SELECT match_id, character, pool, COUNT(*) AS spends, SUM(points) AS points
    FROM v20_spends
    WHERE game = $game
    GROUP BY match_id, character, pool
),
fights AS (
    SELECT
        c.sheet,
        c.name,
        c.kind,
        p.pool,
        COALESCE(s.spends, 0) AS spends,
        COALESCE(s.points, 0) AS points
    FROM stg_v20_character_games AS c
    CROSS JOIN pools AS p
    LEFT JOIN spent AS s
        ON s.match_id = c.match_id AND s.character = c.character AND s.pool = p.pool
)
SELECT
    sheet,
    MIN(name) AS name,
    MIN(kind) AS kind,
    pool,
    COUNT(*) AS fights,
    SUM(CASE WHEN points > 0 THEN 1 ELSE 0 END) AS spending_fights,
    SUM(spends) AS spends,
    SUM(points) AS points,
    CAST(SUM(points) AS DOUBLE) / COUNT(*) AS points_per_fight
FROM fights
GROUP BY sheet, pool
HAVING COUNT(*) >= COALESCE($min_sample, 0)
