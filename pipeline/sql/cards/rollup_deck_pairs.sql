-- model: rollup_deck_pairs (rollup: stored at ingest, see pipeline.rollups)
-- grain: one row per (format, match day, deck list, opponent deck list) of the matches of
-- $game in scope with two deck-games, from the first's side; and one row per deck-game of any
-- other match (match_id and seat set, no opponent)
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- source: stg_deck_games
-- What the archetype models (archetype_win_rates, archetype_matchups) read: which list met
-- which, and how it ended. In a two-deck match a deck-game has one opponent, so its counts sum
-- over every match of the same two lists (seat_games, wins, losses, draws from the deck's side),
-- and an archetype mirror is a row whose two lists share an archetype, counted from both sides.
-- A match of more deck-games (or one) keeps a row a deck-game, so that the models can group
-- its seats by archetype as the facts would. Each count is a sum of flags made within one match
-- (pipeline.rollups).
WITH seat_games AS (
    SELECT
        match_id,
        format,
        match_date,
        seat,
        deck_id,
        won,
        lost,
        drew,
        COUNT(*) OVER (PARTITION BY match_id) AS deck_games
    FROM stg_deck_games
),
two_deck_pairs AS (
    SELECT
        a.format,
        a.match_date,
        CAST(NULL AS VARCHAR) AS match_id,
        CAST(NULL AS TINYINT) AS seat,
        a.deck_id,
        b.deck_id AS opponent_deck_id,
        COUNT(*) AS seat_games,
        SUM(a.won) AS wins,
        SUM(a.lost) AS losses,
        SUM(a.drew) AS draws
    FROM seat_games AS a
    INNER JOIN seat_games AS b ON b.match_id = a.match_id AND b.seat <> a.seat
    WHERE a.deck_games = 2
    GROUP BY a.format, a.match_date, a.deck_id, b.deck_id
),
other_seats AS (
    SELECT
        format,
        match_date,
        match_id,
        CAST(seat AS TINYINT) AS seat,
        deck_id,
        CAST(NULL AS VARCHAR) AS opponent_deck_id,
        CAST(1 AS BIGINT) AS seat_games,
        CAST(won AS BIGINT) AS wins,
        CAST(lost AS BIGINT) AS losses,
        CAST(drew AS BIGINT) AS draws
    FROM seat_games
    WHERE deck_games <> 2
)
SELECT * FROM two_deck_pairs
UNION ALL
SELECT * FROM other_seats
