-- model: archetype_matchups
-- grain: one row per ordered (archetype, opponent archetype) pair met in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep pairs met at least this often; NULL = 0)
-- input: archetype_of = pipeline.archetypes:archetype_of
-- Archetypes as archetype_win_rates clusters them. Counts are from the row archetype's side:
-- (A, B) and (B, A) mirror each other. A draw counts as not a win. A mirror (A, A) has one row
-- counted per match, with its draws; its wins, losses and win rate are NULL, as in matchups.
-- The pairs are rollup_deck_pairs': a match of two deck-games as the pair of lists that met,
-- from each side (a mirror's two rows are one match); any other match a row a deck-game,
-- paired here seat with seat.
-- rate: win_rate = wins / n
-- order: archetype_name, opponent_name
WITH two_deck_pairs AS (
    SELECT
        a.archetype,
        a.archetype_name,
        o.archetype AS opponent,
        o.archetype_name AS opponent_name,
        p.seat_games,
        p.wins,
        p.losses,
        p.draws
    FROM rollup_deck_pairs AS p
    INNER JOIN archetype_of AS a ON a.deck_id = p.deck_id
    INNER JOIN archetype_of AS o ON o.deck_id = p.opponent_deck_id
    WHERE p.match_id IS NULL
),
seat_games AS (  -- the deck-games of any other match
    SELECT p.match_id, p.seat, p.wins AS won, p.losses AS lost, p.draws AS drew,
           a.archetype, a.archetype_name
    FROM rollup_deck_pairs AS p
    INNER JOIN archetype_of AS a ON a.deck_id = p.deck_id
    WHERE p.match_id IS NOT NULL
),
other_pairs AS (
    SELECT
        a.match_id,
        a.archetype,
        a.archetype_name,
        b.archetype AS opponent,
        b.archetype_name AS opponent_name,
        a.won,
        a.lost,
        a.drew
    FROM seat_games AS a
    INNER JOIN seat_games AS b ON b.match_id = a.match_id AND b.seat <> a.seat
),
cross_rows AS (
    SELECT archetype, archetype_name, opponent, opponent_name, seat_games AS n, draws, losses,
           wins
    FROM two_deck_pairs
    WHERE archetype <> opponent
    UNION ALL
    SELECT archetype, archetype_name, opponent, opponent_name, 1 AS n, drew, lost, won
    FROM other_pairs
    WHERE archetype <> opponent
),
cross_archetype AS (
    SELECT archetype, archetype_name, opponent, opponent_name, FALSE AS is_mirror,
           CAST(SUM(n) AS BIGINT) AS n, CAST(SUM(draws) AS BIGINT) AS draws,
           CAST(SUM(losses) AS BIGINT) AS losses, CAST(SUM(wins) AS BIGINT) AS wins
    FROM cross_rows
    GROUP BY archetype, archetype_name, opponent, opponent_name
),
mirror_rows AS (  -- a two-deck mirror is two rows, one a side: half of them are its matches
    SELECT archetype, archetype_name, opponent, opponent_name, SUM(seat_games) / 2 AS n,
           SUM(draws) / 2 AS draws
    FROM two_deck_pairs
    WHERE archetype = opponent
    GROUP BY archetype, archetype_name, opponent, opponent_name
    UNION ALL
    SELECT archetype, archetype_name, opponent, opponent_name, COUNT(DISTINCT match_id) AS n,
           COUNT(DISTINCT CASE WHEN drew = 1 THEN match_id END) AS draws
    FROM other_pairs
    WHERE archetype = opponent
    GROUP BY archetype, archetype_name, opponent, opponent_name
),
mirror AS (
    SELECT archetype, archetype_name, opponent, opponent_name, TRUE AS is_mirror,
           CAST(SUM(n) AS BIGINT) AS n, CAST(SUM(draws) AS BIGINT) AS draws,
           CAST(NULL AS BIGINT) AS losses, CAST(NULL AS BIGINT) AS wins
    FROM mirror_rows
    GROUP BY archetype, archetype_name, opponent, opponent_name
),
matchup_rows AS (
    SELECT * FROM cross_archetype
    UNION ALL
    SELECT * FROM mirror
)
SELECT archetype, archetype_name, opponent, opponent_name, is_mirror, n, draws, losses, wins
FROM matchup_rows
WHERE n >= COALESCE($min_sample, 0)
