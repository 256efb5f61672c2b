-- model: matchups
-- grain: one row per ordered (faction, opponent_faction) pair met in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep pairs met at least this often; NULL = 0)
-- faction: Vitorian, the Sovereign's colour; Eredan, the deck's guild (decks.faction).
-- Counts are from the faction's side: (A, B) and (B, A) mirror each other. A draw counts as
-- not a win. A mirror (A, A) has one row counted per match: n mirror matches and their draws;
-- its wins, losses and win rate are NULL, because a mirror is won by the faction exactly as
-- often as it is lost and says nothing about its strength. With more than two seats, every
-- other seat of the match is an opponent.
-- rate: win_rate = wins / n
-- order: faction, opponent_faction
WITH seat_games AS (
    SELECT match_id, seat, faction, won, lost, drew
    FROM stg_deck_games
),
pairs AS (
    SELECT
        a.match_id,
        a.faction,
        b.faction AS opponent_faction,
        a.won,
        a.lost,
        a.drew
    FROM seat_games AS a
    INNER JOIN seat_games AS b ON b.match_id = a.match_id AND b.seat <> a.seat
),
cross_faction AS (
    SELECT
        faction,
        opponent_faction,
        FALSE AS is_mirror,
        COUNT(*) AS n,
        SUM(drew) AS draws,
        SUM(lost) AS losses,
        SUM(won) AS wins
    FROM pairs
    WHERE faction <> opponent_faction
    GROUP BY faction, opponent_faction
),
mirror AS (
    SELECT
        faction,
        opponent_faction,
        TRUE AS is_mirror,
        COUNT(DISTINCT match_id) AS n,
        COUNT(DISTINCT CASE WHEN drew = 1 THEN match_id END) AS draws,
        CAST(NULL AS BIGINT) AS losses,
        CAST(NULL AS BIGINT) AS wins
    FROM pairs
    WHERE faction = opponent_faction
    GROUP BY faction, opponent_faction
),
matchup_rows AS (
    SELECT * FROM cross_faction
    UNION ALL
    SELECT * FROM mirror
)
SELECT faction, opponent_faction, is_mirror, n, draws, losses, wins
FROM matchup_rows
WHERE n >= COALESCE($min_sample, 0)
