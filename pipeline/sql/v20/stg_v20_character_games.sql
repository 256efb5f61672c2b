-- model: stg_v20_character_games (staging over v20_characters and stg_seat_games: no aggregate)
-- grain: one row per character per fight of $game in scope (a "character-fight")
-- source: v20_characters (the game's own table), stg_seat_games
-- sheet: the character's catalog sheet; build: its side's party (seats.setup_name). won, lost,
-- drew: its side's result as 0/1, to be summed (a draw is not a win). fell: 1 if it was
-- Incapacitated, in torpor, destroyed or dead at some point of the fight.
SELECT
    c.match_id,
    CAST(c.seat AS INTEGER) AS seat,
    c.side,
    c.character,
    c.sheet,
    c.name,
    c.kind,
    c.build,
    c.final_status,
    CAST(c.boxes AS INTEGER) AS boxes,
    CAST(c.turns_survived AS INTEGER) AS turns_survived,
    CAST(c.fell_turn AS INTEGER) AS fell_turn,
    CASE WHEN c.fell_turn IS NULL THEN 0 ELSE 1 END AS fell,
    CASE WHEN c.torpor THEN 1 ELSE 0 END AS torpor,
    CASE WHEN c.died THEN 1 ELSE 0 END AS died,
    CAST(c.frenzy_triggers AS INTEGER) AS frenzy_triggers,
    CASE WHEN c.frenzied THEN 1 ELSE 0 END AS frenzied,
    CAST(c.rotschreck_triggers AS INTEGER) AS rotschreck_triggers,
    CASE WHEN c.rotschreck THEN 1 ELSE 0 END AS rotschrecked,
    g.won,
    g.lost,
    g.drew
FROM v20_characters AS c
INNER JOIN stg_seat_games AS g ON g.match_id = c.match_id AND g.seat = c.seat
WHERE c.game = $game
