-- model: frenzy_rates
-- grain: one row per vampire character sheet of $game in the fights in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep sheets with at least this many fights)
-- source: stg_v20_character_games
-- Only vampires frenzy or flee in Rötschreck (V20-12). frenzy_triggered: fights with at least
-- one frenzy trigger the Storyteller logged and the character did not ignore (V20-12.7);
-- frenzied: fights in which it frenzied (a roll with no net success, V20-12.2, or an Instinct
-- holder's trigger, V20-12.4). The same for Rötschreck (V20-12.9, V20-12.10). Each rate is
-- given per fight and per triggered fight.
-- rate: frenzy_rate = frenzied / fights
-- rate: frenzy_when_triggered = frenzied / frenzy_triggered
-- rate: rotschreck_rate = rotschrecked / fights
-- rate: rotschreck_when_triggered = rotschrecked / rotschreck_triggered
-- order: fights DESC, sheet
SELECT
    sheet,
    MIN(name) AS name,
    COUNT(*) AS fights,
    SUM(CASE WHEN frenzy_triggers > 0 THEN 1 ELSE 0 END) AS frenzy_triggered,
    SUM(frenzied) AS frenzied,
    SUM(CASE WHEN rotschreck_triggers > 0 THEN 1 ELSE 0 END) AS rotschreck_triggered,
    SUM(rotschrecked) AS rotschrecked
FROM stg_v20_character_games
WHERE kind = 'vampire'
GROUP BY sheet
HAVING COUNT(*) >= COALESCE($min_sample, 0)
