-- must hold: a match's results agree with it: a draw (is_draw) has every seat 'draw' and no
-- winning side; a decided match has at least one 'win', no 'draw', every other seat 'loss',
-- and exactly one 'win' in a game whose every side is one seat (game_info.one_seat_sides);
-- when winning_side is set, every winner sits on that side and no loser does.
-- grain: one row per offending match.
WITH results AS (
    SELECT
        m.match_id,
        m.game,
        m.is_draw,
        m.winning_side,
        m.result_reason,
        count(s.seat) AS seats,
        sum(CASE WHEN s.result = 'win' THEN 1 ELSE 0 END) AS wins,
        sum(CASE WHEN s.result = 'loss' THEN 1 ELSE 0 END) AS losses,
        sum(CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END) AS draws,
        sum(CASE WHEN s.result = 'win' AND (s.side IS NULL OR s.side <> m.winning_side)
            THEN 1 ELSE 0 END) AS winners_off_side,
        sum(CASE WHEN s.result = 'loss' AND s.side = m.winning_side
            THEN 1 ELSE 0 END) AS losers_on_side
    FROM matches AS m
    INNER JOIN seats AS s ON s.match_id = m.match_id
    GROUP BY m.match_id, m.game, m.is_draw, m.winning_side, m.result_reason
)
SELECT
    r.match_id,
    r.is_draw,
    r.winning_side,
    r.seats,
    r.wins,
    r.losses,
    r.draws,
    r.winners_off_side,
    r.losers_on_side,
    r.result_reason
FROM results AS r
LEFT JOIN game_info AS g ON g.game = r.game
WHERE r.is_draw IS NULL
   OR (r.is_draw AND (r.draws <> r.seats OR r.winning_side IS NOT NULL))
   OR (NOT r.is_draw AND (r.wins < 1 OR r.draws > 0 OR r.wins + r.losses <> r.seats))
   OR (NOT r.is_draw AND g.one_seat_sides AND r.wins <> 1)
   OR (r.winning_side IS NOT NULL AND (r.winners_off_side > 0 OR r.losers_on_side > 0))
