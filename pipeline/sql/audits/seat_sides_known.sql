-- must hold: a seat that names a side names one of its game's sides (game_sides), and a seat
-- that names a role names one of the roles of its side, or of any side when it names none
-- (game_roles); both from engine.registry. Games whose seats are all alike leave both null.
-- grain: one row per offending seat.
SELECT s.match_id, s.game, s.seat, s.side, s.role
FROM seats AS s
WHERE (s.side IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM game_sides AS g WHERE g.game = s.game AND g.side = s.side))
   OR (s.role IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM game_roles AS r
        WHERE r.game = s.game AND r.role = s.role AND (s.side IS NULL OR r.side = s.side)))
