-- model: stg_seat_mirrors (staging over stg_deck_games: windows, no aggregate)
-- grain: one row per seat of a match in scope, as stg_deck_games, with its mirror flags
-- source: stg_deck_games
-- faction_mirror: another seat of the match plays the same faction; archetype_mirror: the same
-- deck_name of the same faction. Every other seat of the match is an opponent: a match's rows
-- sharing the key are that many seats, one row a seat (audits seats_per_match and
-- decks_one_per_seat). A NULL faction or deck_name is never a mirror. scope_seat_games: all
-- the deck-games in scope, the same on every row (the denominator of a meta share).
SELECT
    g.*,
    CASE WHEN g.faction IS NOT NULL
          AND COUNT(*) OVER (PARTITION BY g.match_id, g.faction) > 1
        THEN 1 ELSE 0 END AS faction_mirror,
    CASE WHEN g.faction IS NOT NULL AND g.deck_name IS NOT NULL
          AND COUNT(*) OVER (PARTITION BY g.match_id, g.faction, g.deck_name) > 1
        THEN 1 ELSE 0 END AS archetype_mirror,
    COUNT(*) OVER () AS scope_seat_games
FROM stg_deck_games AS g
