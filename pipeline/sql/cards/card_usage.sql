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
-- The event groups run on match_key (the matches of stg_scope numbered), an integer, not on the
-- match id text, and only then take their deck-game's result, one row a (match, seat) (audits
-- seats_per_match, decks_one_per_seat): joining the groups, not the events, is the cheaper side.
-- A deck-game is a seat of stg_seats with its row of stg_decks: a reader that narrows decks
-- (the app's faction filter) narrows every count here.
-- Each card is counted from two sides, with no deck line joined to its events: the deck side
-- counts deck lines, one per deck holding the card (audit decks_have_cards); the event side
-- counts the (match, seat, card) groups of hand and play events, each of a card in its seat's
-- deck (audit card_events_in_deck); not_drawn and its wins and draws are the deck side's less
-- the drawn ones. Events of a card no deck holds make no row.
WITH scope AS (
    SELECT
        match_id,
        ROW_NUMBER() OVER (ORDER BY match_id) AS match_key
    FROM stg_scope
),
seat_games AS (
    SELECT
        m.match_key,
        s.match_id,
        s.seat,
        CASE WHEN s.result = 'win' THEN 1 ELSE 0 END AS won,
        CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END AS drew
    FROM stg_seats AS s
    INNER JOIN stg_decks AS d ON d.match_id = s.match_id AND d.seat = s.seat
    INNER JOIN scope AS m ON m.match_id = s.match_id
    WHERE s.game = $game
      AND d.game = $game
),
deck_totals AS (
    SELECT COUNT(*) AS decks FROM seat_games
),
deck_side AS (
    SELECT
        d.card,
        MIN(d.card_name) AS card_name,
        MIN(d.section) AS section,
        COUNT(*) AS included,
        AVG(CAST(d.copies AS DOUBLE)) AS avg_copies,
        SUM(g.drew) AS deck_draws,
        SUM(g.won) AS deck_wins
    FROM stg_deck_cards AS d
    INNER JOIN seat_games AS g ON g.match_id = d.match_id AND g.seat = d.seat
    WHERE d.game = $game
    GROUP BY d.card
),
card_seat_events AS (
    SELECT
        m.match_key,
        e.seat,
        e.card,
        MAX(CASE WHEN e.kind IN ('opening_hand', 'drawn') THEN 1 ELSE 0 END) AS in_hand,
        MAX(CASE WHEN e.kind = 'played' THEN 1 ELSE 0 END) AS was_played,
        MIN(CASE WHEN e.kind = 'played' THEN e.turn END) AS first_played_turn
    FROM stg_card_events AS e
    INNER JOIN scope AS m ON m.match_id = e.match_id
    WHERE e.game = $game
      AND e.kind IN ('opening_hand', 'drawn', 'played')
    GROUP BY m.match_key, e.seat, e.card
),
event_side AS (
    SELECT
        ev.card,
        SUM(ev.was_played) AS played,
        SUM(ev.was_played * g.drew) AS played_draws,
        SUM(ev.was_played * g.won) AS played_wins,
        SUM(ev.in_hand) AS drawn,
        SUM(ev.in_hand * g.drew) AS drawn_draws,
        SUM(ev.in_hand * g.won) AS drawn_wins,
        AVG(CAST(ev.first_played_turn AS DOUBLE)) AS avg_turn_first_played
    FROM card_seat_events AS ev
    INNER JOIN seat_games AS g ON g.match_key = ev.match_key AND g.seat = ev.seat
    GROUP BY ev.card
)
SELECT
    c.card,
    c.card_name,
    c.section,
    t.decks,
    c.included,
    c.avg_copies,
    c.deck_draws,
    c.deck_wins,
    COALESCE(e.played, 0) AS played,
    COALESCE(e.played_draws, 0) AS played_draws,
    COALESCE(e.played_wins, 0) AS played_wins,
    COALESCE(e.drawn, 0) AS drawn,
    COALESCE(e.drawn_draws, 0) AS drawn_draws,
    COALESCE(e.drawn_wins, 0) AS drawn_wins,
    c.included - COALESCE(e.drawn, 0) AS not_drawn,
    c.deck_draws - COALESCE(e.drawn_draws, 0) AS not_drawn_draws,
    c.deck_wins - COALESCE(e.drawn_wins, 0) AS not_drawn_wins,
    e.avg_turn_first_played
FROM deck_side AS c
LEFT JOIN event_side AS e ON e.card = c.card
CROSS JOIN deck_totals AS t
WHERE c.included >= COALESCE($min_sample, 0)
