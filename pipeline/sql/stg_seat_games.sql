-- model: stg_seat_games (staging over stg_seats and stg_scope: no aggregate)
-- grain: one row per seat of a match in scope (a "seat-game": one deck played in one match)
-- source: stg_seats, stg_scope
-- won, lost, drew, went_first: the seat's result and turn order as 0/1, to be summed. A draw is
-- not a win. faction_mirror: another seat of the match plays the same faction;
-- archetype_mirror: the same deck_name of the same faction. Every other seat of the match is
-- an opponent: a match's rows sharing the key are that many seats, one row a seat (audit
-- seats_two_per_match). A NULL faction or deck_name is never a mirror. scope_seat_games: all
-- the seat-games in scope, the same on every row (the denominator of a meta share).
SELECT
    s.match_id,
    m.match_key,
    m.format,
    s.seat,
    s.deck_id,
    s.deck_name,
    s.faction,
    s.is_first,
    s.result,
    CASE WHEN s.is_first THEN 1 ELSE 0 END AS went_first,
    CASE WHEN s.result = 'win' THEN 1 ELSE 0 END AS won,
    CASE WHEN s.result = 'loss' THEN 1 ELSE 0 END AS lost,
    CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END AS drew,
    CASE WHEN s.faction IS NOT NULL
          AND COUNT(*) OVER (PARTITION BY s.match_id, s.faction) > 1
        THEN 1 ELSE 0 END AS faction_mirror,
    CASE WHEN s.faction IS NOT NULL AND s.deck_name IS NOT NULL
          AND COUNT(*) OVER (PARTITION BY s.match_id, s.faction, s.deck_name) > 1
        THEN 1 ELSE 0 END AS archetype_mirror,
    COUNT(*) OVER () AS scope_seat_games
FROM stg_seats AS s
INNER JOIN stg_scope AS m ON m.match_id = s.match_id
WHERE s.game = $game
