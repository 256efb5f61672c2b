-- model: deck_archetypes
-- grain: one row per archetype (deck_name within faction) of $game in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep archetypes with at least this many seat-games)
-- seat_games counts every deck of the archetype; meta_share is its share of all decks;
-- distinct_decks counts distinct deck lists (deck_id) under the name. The win rate leaves
-- out the mirror matches against the same archetype (counted in mirror_matches). A draw
-- counts as not a win.
-- rate: meta_share = seat_games / all_seat_games
-- rate: win_rate = wins / games
-- order: seat_games DESC, faction, deck_name
SELECT
    deck_name,
    faction,
    COUNT(DISTINCT deck_id) AS distinct_decks,
    scope_seat_games AS all_seat_games,
    COUNT(*) AS seat_games,
    SUM(1 - archetype_mirror) AS games,
    SUM((1 - archetype_mirror) * drew) AS draws,
    SUM((1 - archetype_mirror) * lost) AS losses,
    SUM((1 - archetype_mirror) * won) AS wins,
    COUNT(DISTINCT CASE WHEN archetype_mirror = 1 THEN match_id END) AS mirror_matches
FROM stg_seat_mirrors
GROUP BY deck_name, faction, scope_seat_games
HAVING COUNT(*) >= COALESCE($min_sample, 0)
