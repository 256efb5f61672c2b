-- model: damage_per_attack
-- grain: one row per (weapon, attack_kind) of the attacks rolled in the fights of $game in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep weapons with at least this many attacks)
-- source: stg_scope, v20_rolls (purpose 'attack': one row per attack rolled), v20_damage (one
--         row per damage application; attack_seq: the attack roll it came from)
-- attack_kind: the ability the weapon attacks with (brawl, melee, firearms, athletics). An
-- attack is an attack roll (an action forfeited before its dice is none); a hit is an attack
-- whose successes outlasted the defense (V20-7.1). levels: health levels taken after soak;
-- damage and soaked: the damage roll's successes and the soak's. Counter-blows (V20-7.5) are
-- not attacks and are left out. levels_sd: the standard deviation of levels per attack.
-- rate: hit_rate = hits / attacks
-- order: attacks DESC, weapon
WITH attacks AS (
    SELECT
        r.match_id,
        r.seq,
        r.weapon,
        r.attack_kind,
        CASE WHEN r.attack_result = 'hit' THEN 1 ELSE 0 END AS hit
    FROM v20_rolls AS r
    INNER JOIN stg_scope AS m ON m.match_id = r.match_id
    WHERE r.game = $game AND r.purpose = 'attack'
),
dealt AS (
    SELECT
        match_id,
        attack_seq,
        SUM(levels) AS levels,
        SUM(damage) AS damage,
        SUM(soaked) AS soaked
    FROM v20_damage
    WHERE game = $game AND attack_seq IS NOT NULL
    GROUP BY match_id, attack_seq
),
dealt_by_attack AS (
    SELECT
        a.weapon,
        a.attack_kind,
        a.hit,
        CAST(COALESCE(d.levels, 0) AS DOUBLE) AS levels,
        CAST(COALESCE(d.damage, 0) AS DOUBLE) AS damage,
        CAST(COALESCE(d.soaked, 0) AS DOUBLE) AS soaked
    FROM attacks AS a
    LEFT JOIN dealt AS d ON d.match_id = a.match_id AND d.attack_seq = a.seq
)
SELECT
    weapon,
    attack_kind,
    COUNT(*) AS attacks,
    SUM(hit) AS hits,
    CAST(SUM(levels) AS BIGINT) AS levels,
    SUM(levels) / COUNT(*) AS levels_per_attack,
    STDDEV_SAMP(levels) AS levels_sd,
    SUM(levels) / NULLIF(SUM(hit), 0) AS levels_per_hit,
    SUM(damage) / NULLIF(SUM(hit), 0) AS damage_per_hit,
    SUM(soaked) / NULLIF(SUM(hit), 0) AS soaked_per_hit
FROM dealt_by_attack
GROUP BY weapon, attack_kind
HAVING COUNT(*) >= COALESCE($min_sample, 0)
