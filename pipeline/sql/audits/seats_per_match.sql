-- must hold: every match has as many seats as its matches.seats says, within its game's
-- min_seats to max_seats (game_info, from engine.registry), numbered 0 to seats - 1, each once;
-- a match of a game this build does not know is an offence too.
-- grain: one row per offending match.
WITH seat_counts AS (
    SELECT
        m.match_id,
        m.game,
        m.seats AS stated_seats,
        count(s.seat) AS seats,
        count(DISTINCT s.seat) AS distinct_seats,
        min(s.seat) AS low_seat,
        max(s.seat) AS high_seat
    FROM matches AS m
    LEFT JOIN seats AS s ON s.match_id = m.match_id
    GROUP BY m.match_id, m.game, m.seats
)
SELECT
    c.match_id,
    c.game,
    c.stated_seats,
    c.seats,
    c.low_seat,
    c.high_seat,
    g.min_seats,
    g.max_seats
FROM seat_counts AS c
LEFT JOIN game_info AS g ON g.game = c.game
WHERE g.game IS NULL
   OR c.seats < g.min_seats
   OR c.seats > g.max_seats
   OR c.stated_seats IS NULL
   OR c.seats <> c.stated_seats
   OR c.distinct_seats <> c.seats
   OR c.low_seat <> 0
   OR c.high_seat <> c.seats - 1
