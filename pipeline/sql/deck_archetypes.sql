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
WITH scope AS (
    SELECT match_id
    FROM stg_matches
    WHERE game = $game
      AND ($format IS NULL OR format = $format)
      AND ($date_from IS NULL OR match_date >= $date_from)
      AND ($date_to IS NULL OR match_date <= $date_to)
),
seat_games AS (
    SELECT s.match_id, s.seat, s.deck_name, s.faction, s.deck_id, s.result
    FROM stg_seats AS s
    INNER JOIN scope AS m ON m.match_id = s.match_id
    WHERE s.game = $game
),
mirror_flags AS (
    SELECT
        a.match_id,
        a.seat,
        MAX(CASE WHEN b.deck_name = a.deck_name AND b.faction = a.faction THEN 1 ELSE 0 END)
            AS is_mirror
    FROM seat_games AS a
    INNER JOIN seat_games AS b ON b.match_id = a.match_id AND b.seat <> a.seat
    GROUP BY a.match_id, a.seat
),
flagged AS (
    SELECT
        g.match_id,
        g.deck_name,
        g.faction,
        g.deck_id,
        CASE WHEN g.result = 'win' THEN 1 ELSE 0 END AS won,
        CASE WHEN g.result = 'loss' THEN 1 ELSE 0 END AS lost,
        CASE WHEN g.result = 'draw' THEN 1 ELSE 0 END AS drew,
        COALESCE(f.is_mirror, 0) AS is_mirror
    FROM seat_games AS g
    LEFT JOIN mirror_flags AS f ON f.match_id = g.match_id AND f.seat = g.seat
),
totals AS (
    SELECT COUNT(*) AS all_seat_games FROM seat_games
)
SELECT
    g.deck_name,
    g.faction,
    COUNT(DISTINCT g.deck_id) AS distinct_decks,
    t.all_seat_games,
    COUNT(*) AS seat_games,
    SUM(1 - g.is_mirror) AS games,
    SUM((1 - g.is_mirror) * g.drew) AS draws,
    SUM((1 - g.is_mirror) * g.lost) AS losses,
    SUM((1 - g.is_mirror) * g.won) AS wins,
    COUNT(DISTINCT CASE WHEN g.is_mirror = 1 THEN g.match_id END) AS mirror_matches
FROM flagged AS g
CROSS JOIN totals AS t
GROUP BY g.deck_name, g.faction, t.all_seat_games
HAVING COUNT(*) >= COALESCE($min_sample, 0)
