-- model: time_to_fall
-- grain: one row per character sheet of $game in the fights in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep sheets with at least this many fights)
-- source: stg_v20_character_games
-- A character falls when it is first Incapacitated, in torpor, destroyed or dead (a flight,
-- "gone", is not a fall). fell_turn: the turn it fell in (0: the ambush, before turn 1);
-- avg_fell_turn, first_fell_turn, last_fell_turn: among those that fell. turns_survived: the
-- turns played before its fall, or the whole fight for those that never fell (so
-- avg_turns_survived is cut short by the fight's end, a censored mean). torpor: fights in which
-- it went into torpor; died: fights it ended destroyed or dead.
-- rate: fall_rate = fell / fights
-- rate: death_rate = died / fights
-- order: fights DESC, sheet
SELECT
    sheet,
    MIN(name) AS name,
    MIN(kind) AS kind,
    COUNT(*) AS fights,
    SUM(fell) AS fell,
    AVG(CAST(fell_turn AS DOUBLE)) AS avg_fell_turn,
    MIN(fell_turn) AS first_fell_turn,
    MAX(fell_turn) AS last_fell_turn,
    AVG(CAST(turns_survived AS DOUBLE)) AS avg_turns_survived,
    SUM(torpor) AS torpor,
    SUM(died) AS died
FROM stg_v20_character_games
GROUP BY sheet
HAVING COUNT(*) >= COALESCE($min_sample, 0)
