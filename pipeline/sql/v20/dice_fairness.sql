-- model: dice_fairness
-- grain: one row per roll cell of $game in the fights in scope with at least 30 rolls (and at
--        least $min_sample): kind, pool, difficulty, specialty, auto, can_botch
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep cells with at least this many rolls)
-- source: stg_scope, v20_rolls (one row per roll, one per initiative die)
-- python: pipeline.dice_audit:fairness
-- Are the logged dice fair? The query counts each cell's outcomes (a botch, or the net
-- successes; an initiative die's face); pipeline.dice_audit sets them against the exact law of
-- the cell (engine.v20.dice.distribution; faces 1-10 alike for an initiative die) with
-- Pearson's chi-square test, outcomes pooled until each expects 5 rolls or more. kind: action
-- (attack, block, dodge, parry, ambush, notice, heal, abort), virtue (frenzy, rotschreck,
-- conscience), damage, soak (neither can botch, V20-2.10) or initiative. loaded: the p-value
-- times the number of cells tested (Bonferroni) is below 0.001.
SELECT
    kind,
    pool,
    difficulty,
    specialty,
    auto,
    can_botch,
    outcome,
    COUNT(*) AS rolls
FROM (
    SELECT
        CASE
            WHEN r.purpose IN ('initiative', 'damage', 'soak') THEN r.purpose
            WHEN r.purpose IN ('frenzy', 'rotschreck', 'conscience') THEN 'virtue'
            ELSE 'action'
        END AS kind,
        CAST(r.pool AS INTEGER) AS pool,
        CAST(r.difficulty AS INTEGER) AS difficulty,
        r.specialty,
        CAST(r.auto AS INTEGER) AS auto,
        r.can_botch,
        CAST(r.outcome AS INTEGER) AS outcome
    FROM v20_rolls AS r
    INNER JOIN stg_scope AS m ON m.match_id = r.match_id
    WHERE r.game = $game
) AS cells
GROUP BY kind, pool, difficulty, specialty, auto, can_botch, outcome
