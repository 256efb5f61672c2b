-- model: rollup_deck_games (rollup: stored at ingest, see pipeline.rollups)
-- grain: one row per (format, match day, faction) of the deck-games of $game in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- source: stg_seat_mirrors
-- The deck-games' counts that faction_win_rates and card_usage sum over a scope. Each count is
-- a sum of flags made within one match (pipeline.rollups), so the rows of any set of matches
-- add up to the rows of their union. seat_games, seat_wins: every deck-game and its wins;
-- games, draws, losses, wins: those outside faction mirrors; mirror_matches: a faction mirror
-- counted once, on the first seat of the faction; first_*: the faction's seat played first,
-- second_*: any other seat (outside mirrors).
WITH seat_games AS (
    SELECT
        g.*,
        ROW_NUMBER() OVER (PARTITION BY g.match_id, g.faction ORDER BY g.seat) AS nth_of_faction
    FROM stg_seat_mirrors AS g
)
SELECT
    format,
    match_date,
    faction,
    COUNT(*) AS seat_games,
    SUM(won) AS seat_wins,
    SUM(1 - faction_mirror) AS games,
    SUM((1 - faction_mirror) * drew) AS draws,
    SUM((1 - faction_mirror) * lost) AS losses,
    SUM((1 - faction_mirror) * won) AS wins,
    SUM(CASE WHEN faction_mirror = 1 AND nth_of_faction = 1 THEN 1 ELSE 0 END) AS mirror_matches,
    SUM((1 - faction_mirror) * went_first) AS first_games,
    SUM((1 - faction_mirror) * went_first * won) AS first_wins,
    SUM((1 - faction_mirror) * (1 - went_first)) AS second_games,
    SUM((1 - faction_mirror) * (1 - went_first) * won) AS second_wins
FROM seat_games
GROUP BY format, match_date, faction
