-- model: build_win_rates
-- grain: one row per (build, side) among the seat-games of $game in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- source: stg_seat_games, stg_seats, bid_rounds (Bid's own table: one row per round and seat)
-- A seat-game is one seat in one match; a side of two seats counts each seat. build: the seat's
-- build (seats.setup_name). A draw is not a win. coins_bid: the coins the seats of the build
-- bid in all, avg_bid: per round.
-- rate: win_rate = wins / seat_games
-- order: build, side
WITH bids AS (
    SELECT match_id, CAST(seat AS INTEGER) AS seat, SUM(bid) AS coins, COUNT(*) AS rounds
    FROM bid_rounds
    WHERE game = $game
    GROUP BY match_id, seat
)
SELECT
    st.setup_name AS build,
    g.side,
    COUNT(*) AS seat_games,
    SUM(g.won) AS wins,
    SUM(g.lost) AS losses,
    SUM(g.drew) AS draws,
    SUM(COALESCE(b.coins, 0)) AS coins_bid,
    CAST(SUM(COALESCE(b.coins, 0)) AS DOUBLE) / NULLIF(SUM(COALESCE(b.rounds, 0)), 0) AS avg_bid
FROM stg_seat_games AS g
INNER JOIN stg_seats AS st ON st.match_id = g.match_id AND st.seat = g.seat
LEFT JOIN bids AS b ON b.match_id = g.match_id AND b.seat = g.seat
GROUP BY st.setup_name, g.side
