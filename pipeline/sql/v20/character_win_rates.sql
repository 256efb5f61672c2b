-- model: character_win_rates
-- grain: one row per character sheet of $game in the fights in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep sheets with at least this many fights)
-- source: stg_v20_character_games
-- A character wins the fights its side wins. fights: every character-fight of the sheet;
-- the win rate leaves out the mirror fights (the sheet on both sides: one copy wins exactly
-- when the other loses), counted apart in mirror_fights; games = fights - mirror_fights. A
-- draw counts as not a win.
-- rate: win_rate = wins / games
-- order: fights DESC, sheet
WITH mirrored AS (
    SELECT DISTINCT a.match_id, a.sheet
    FROM stg_v20_character_games AS a
    INNER JOIN stg_v20_character_games AS b
        ON b.match_id = a.match_id AND b.sheet = a.sheet AND b.seat <> a.seat
),
fights AS (
    SELECT
        c.sheet,
        c.name,
        c.kind,
        c.won,
        c.lost,
        c.drew,
        CASE WHEN m.sheet IS NULL THEN 0 ELSE 1 END AS mirror
    FROM stg_v20_character_games AS c
    LEFT JOIN mirrored AS m ON m.match_id = c.match_id AND m.sheet = c.sheet
)
SELECT
    sheet,
    MIN(name) AS name,
    MIN(kind) AS kind,
    COUNT(*) AS fights,
    SUM(mirror) AS mirror_fights,
    SUM(1 - mirror) AS games,
    SUM((1 - mirror) * drew) AS draws,
    SUM((1 - mirror) * lost) AS losses,
    SUM((1 - mirror) * won) AS wins
FROM fights
GROUP BY sheet
HAVING COUNT(*) >= COALESCE($min_sample, 0)
