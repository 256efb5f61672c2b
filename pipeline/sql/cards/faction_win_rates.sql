-- model: faction_win_rates
-- grain: one row per faction of $game in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep factions with at least this many seat-games)
-- faction: Vitorian, the Sovereign's colour; Eredan, the deck's guild (decks.faction).
-- seat_games counts every deck of the faction; meta_share is its share of all decks. The win
-- rates leave mirror matches out (a mirror is won exactly as often as it is lost); they are
-- counted in mirror_matches. A draw counts as not a win. first_*: the faction's seat played
-- first; second_*: any other seat. The counts are rollup_deck_games' summed over the scope.
-- rate: meta_share = seat_games / all_seat_games
-- rate: win_rate = wins / games
-- rate: first_win_rate = first_wins / first_games
-- rate: second_win_rate = second_wins / second_games
-- order: seat_games DESC, faction
WITH factions AS (
    SELECT
        faction,
        SUM(seat_games) AS seat_games,
        SUM(games) AS games,
        SUM(draws) AS draws,
        SUM(losses) AS losses,
        SUM(wins) AS wins,
        SUM(mirror_matches) AS mirror_matches,
        SUM(first_games) AS first_games,
        SUM(first_wins) AS first_wins,
        SUM(second_games) AS second_games,
        SUM(second_wins) AS second_wins
    FROM rollup_deck_games
    GROUP BY faction
)
SELECT
    f.faction,
    t.all_seat_games,
    f.seat_games,
    f.games,
    f.draws,
    f.losses,
    f.wins,
    f.mirror_matches,
    f.first_games,
    f.first_wins,
    f.second_games,
    f.second_wins
FROM factions AS f
CROSS JOIN (SELECT SUM(seat_games) AS all_seat_games FROM factions) AS t
WHERE f.seat_games >= COALESCE($min_sample, 0)
