-- model: deck_archetypes
-- grain: one row per archetype (deck_name within faction) of $game in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep archetypes with at least this many seat-games)
-- seat_games counts every deck of the archetype; meta_share is its share of all decks;
-- distinct_decks counts distinct deck lists (deck_id) under the name. The win rate leaves
-- out the mirror matches against the same archetype (counted in mirror_matches). A draw
-- counts as not a win. The counts are rollup_deck_names' summed over the scope.
-- rate: meta_share = seat_games / all_seat_games
-- rate: win_rate = wins / games
-- order: seat_games DESC, faction, deck_name
WITH names AS (
    SELECT
        deck_name,
        faction,
        COUNT(DISTINCT deck_id) AS distinct_decks,
        SUM(seat_games) AS seat_games,
        SUM(games) AS games,
        SUM(draws) AS draws,
        SUM(losses) AS losses,
        SUM(wins) AS wins,
        SUM(mirror_matches) AS mirror_matches
    FROM rollup_deck_names
    GROUP BY deck_name, faction
)
SELECT
    n.deck_name,
    n.faction,
    n.distinct_decks,
    t.all_seat_games,
    n.seat_games,
    n.games,
    n.draws,
    n.losses,
    n.wins,
    n.mirror_matches
FROM names AS n
CROSS JOIN (SELECT SUM(seat_games) AS all_seat_games FROM names) AS t
WHERE n.seat_games >= COALESCE($min_sample, 0)
