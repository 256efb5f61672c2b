-- model: faction_win_rates
-- grain: one row per faction of $game in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep factions with at least this many seat-games)
-- faction: Vitorian, the Sovereign's colour; Eredan, the deck's guild (decks.faction).
-- seat_games counts every deck of the faction; meta_share is its share of all decks. The win
-- rates leave mirror matches out (a mirror is won exactly as often as it is lost); they are
-- counted in mirror_matches. A draw counts as not a win. first_*: the faction's seat played
-- first; second_*: any other seat.
-- rate: meta_share = seat_games / all_seat_games
-- rate: win_rate = wins / games
-- rate: first_win_rate = first_wins / first_games
-- rate: second_win_rate = second_wins / second_games
-- order: seat_games DESC, faction
SELECT
    faction,
    scope_seat_games AS all_seat_games,
    COUNT(*) AS seat_games,
    SUM(1 - faction_mirror) AS games,
    SUM((1 - faction_mirror) * drew) AS draws,
    SUM((1 - faction_mirror) * lost) AS losses,
    SUM((1 - faction_mirror) * won) AS wins,
    COUNT(DISTINCT CASE WHEN faction_mirror = 1 THEN match_id END) AS mirror_matches,
    SUM((1 - faction_mirror) * went_first) AS first_games,
    SUM((1 - faction_mirror) * went_first * won) AS first_wins,
    SUM((1 - faction_mirror) * (1 - went_first)) AS second_games,
    SUM((1 - faction_mirror) * (1 - went_first) * won) AS second_wins
FROM stg_seat_mirrors
GROUP BY faction, scope_seat_games
HAVING COUNT(*) >= COALESCE($min_sample, 0)
