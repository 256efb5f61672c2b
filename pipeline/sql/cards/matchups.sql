-- model: matchups
-- grain: one row per ordered (faction, opponent_faction) pair met in the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep pairs met at least this often; NULL = 0)
-- faction: Vitorian, the Sovereign's colour; Eredan, the deck's guild (decks.faction).
-- Counts are from the faction's side: (A, B) and (B, A) mirror each other. A draw counts as
-- not a win. A mirror (A, A) has one row counted per match: n mirror matches and their draws;
-- its wins, losses and win rate are NULL, because a mirror is won by the faction exactly as
-- often as it is lost and says nothing about its strength. With more than two seats, every
-- other seat of the match is an opponent. The counts are rollup_matchups' summed over the scope.
-- rate: win_rate = wins / n
-- order: faction, opponent_faction
WITH pairs AS (
    SELECT
        faction,
        opponent_faction,
        is_mirror,
        SUM(n) AS n,
        SUM(draws) AS draws,
        SUM(losses) AS losses,
        SUM(wins) AS wins
    FROM rollup_matchups
    GROUP BY faction, opponent_faction, is_mirror
)
SELECT
    faction,
    opponent_faction,
    is_mirror,
    n,
    draws,
    CASE WHEN is_mirror THEN CAST(NULL AS BIGINT) ELSE losses END AS losses,
    CASE WHEN is_mirror THEN CAST(NULL AS BIGINT) ELSE wins END AS wins
FROM pairs
WHERE n >= COALESCE($min_sample, 0)
