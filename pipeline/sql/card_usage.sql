-- model: card_usage
-- grain: one row per card that sits in at least one deck of the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep cards in at least this many decks; NULL = 0)
-- A "deck" is a seat-game: one seat's deck in one match. "Drawn" means ever in that seat's
-- hand (opening_hand or drawn); "played" means a played event of that seat. A draw (the
-- match result) counts as not a win: every win rate is wins / games, draws in the games, and
-- the *_draws columns say how many there were.
-- rate: inclusion_rate = included / decks
-- rate: deck_win_rate = deck_wins / included
-- rate: played_rate = played / included
-- rate: win_rate_when_played = played_wins / played
-- rate: win_rate_when_drawn = drawn_wins / drawn
-- rate: win_rate_when_not_drawn = not_drawn_wins / not_drawn
-- difference: improvement_when_drawn = win_rate_when_drawn - win_rate_when_not_drawn
-- order: included DESC, card
WITH scope AS (
    SELECT match_id
    FROM stg_matches
    WHERE game = $game
      AND ($format IS NULL OR format = $format)
      AND ($date_from IS NULL OR match_date >= $date_from)
      AND ($date_to IS NULL OR match_date <= $date_to)
),
seat_games AS (
    SELECT
        s.match_id,
        s.seat,
        CASE WHEN s.result = 'win' THEN 1 ELSE 0 END AS won,
        CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END AS drew
    FROM stg_seats AS s
    INNER JOIN scope AS m ON m.match_id = s.match_id
    WHERE s.game = $game
),
deck_totals AS (
    SELECT COUNT(*) AS decks FROM seat_games
),
deck_lines AS (
    SELECT
        d.match_id,
        d.seat,
        d.card,
        MIN(d.card_name) AS card_name,
        MIN(d.section) AS section,
        SUM(d.copies) AS copies
    FROM stg_deck_cards AS d
    INNER JOIN scope AS m ON m.match_id = d.match_id
    WHERE d.game = $game
    GROUP BY d.match_id, d.seat, d.card
),
card_seat_events AS (
    SELECT
        e.match_id,
        e.seat,
        e.card,
        MAX(CASE WHEN e.kind IN ('opening_hand', 'drawn') THEN 1 ELSE 0 END) AS in_hand,
        MAX(CASE WHEN e.kind = 'played' THEN 1 ELSE 0 END) AS was_played,
        MIN(CASE WHEN e.kind = 'played' THEN e.turn END) AS first_played_turn
    FROM stg_card_events AS e
    INNER JOIN scope AS m ON m.match_id = e.match_id
    WHERE e.game = $game
      AND e.kind IN ('opening_hand', 'drawn', 'played')
    GROUP BY e.match_id, e.seat, e.card
),
included_decks AS (
    SELECT
        l.card,
        l.card_name,
        l.section,
        l.copies,
        g.won,
        g.drew,
        COALESCE(ev.in_hand, 0) AS in_hand,
        COALESCE(ev.was_played, 0) AS was_played,
        ev.first_played_turn
    FROM deck_lines AS l
    INNER JOIN seat_games AS g ON g.match_id = l.match_id AND g.seat = l.seat
    LEFT JOIN card_seat_events AS ev
        ON ev.match_id = l.match_id AND ev.seat = l.seat AND ev.card = l.card
)
SELECT
    i.card,
    MIN(i.card_name) AS card_name,
    MIN(i.section) AS section,
    t.decks,
    COUNT(*) AS included,
    AVG(CAST(i.copies AS DOUBLE)) AS avg_copies,
    SUM(i.drew) AS deck_draws,
    SUM(i.won) AS deck_wins,
    SUM(i.was_played) AS played,
    SUM(i.was_played * i.drew) AS played_draws,
    SUM(i.was_played * i.won) AS played_wins,
    SUM(i.in_hand) AS drawn,
    SUM(i.in_hand * i.drew) AS drawn_draws,
    SUM(i.in_hand * i.won) AS drawn_wins,
    SUM(1 - i.in_hand) AS not_drawn,
    SUM((1 - i.in_hand) * i.drew) AS not_drawn_draws,
    SUM((1 - i.in_hand) * i.won) AS not_drawn_wins,
    AVG(CAST(i.first_played_turn AS DOUBLE)) AS avg_turn_first_played
FROM included_decks AS i
CROSS JOIN deck_totals AS t
GROUP BY i.card, t.decks
HAVING COUNT(*) >= COALESCE($min_sample, 0)
