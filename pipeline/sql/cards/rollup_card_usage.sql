-- model: rollup_card_usage (rollup: stored at ingest, see pipeline.rollups)
-- grain: one row per (format, match day, deck faction, card) of the deck lines of $game's
-- matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded)
-- source: stg_scope, stg_seats, stg_decks, stg_deck_cards, stg_card_events
-- What card_usage sums over a scope, in its words (see there). Every count is a sum over the
-- deck lines holding the card (one a deck: audit decks_have_cards), each line's flags made
-- within its own match: counted (no other deck of the match holds the card), decided (counted
-- and not drawn), in the opening hand, in hand, drawn later, played (that seat's card events).
-- So the rows of any set of matches add up to the rows of their union, whatever commit wrote
-- them. A mirror match is counted once: mirror_matches on the card's first line in the match
-- (by seat), mirror_matches_in_faction on its first line among the decks of each faction
-- (what card_usage counts when it keeps one faction's decks). first_played and
-- first_played_turns: the lines played, and the sum of the turns they were first played on.
WITH scope AS (
    SELECT
        match_id,
        format,
        match_date,
        ROW_NUMBER() OVER (ORDER BY match_id) AS match_key
    FROM stg_scope
),
seat_games AS (
    SELECT
        m.match_key,
        m.format,
        m.match_date,
        s.seat,
        d.faction AS deck_faction,
        CASE WHEN s.result = 'win' THEN 1 ELSE 0 END AS won,
        CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END AS drew
    FROM stg_seats AS s
    INNER JOIN stg_decks AS d ON d.match_id = s.match_id AND d.seat = s.seat
    INNER JOIN scope AS m ON m.match_id = s.match_id
    WHERE s.game = $game
      AND d.game = $game
),
deck_lines AS (
    SELECT
        m.match_key,
        d.seat,
        d.card,
        d.card_name,
        d.section,
        d.copies
    FROM stg_deck_cards AS d
    INNER JOIN scope AS m ON m.match_id = d.match_id
    WHERE d.game = $game
),
faction_holders AS (
    SELECT
        l.match_key,
        l.card,
        g.deck_faction,
        COUNT(*) AS holders,
        MIN(l.seat) AS first_seat
    FROM deck_lines AS l
    INNER JOIN seat_games AS g ON g.match_key = l.match_key AND g.seat = l.seat
    GROUP BY l.match_key, l.card, g.deck_faction
),
holders AS (
    SELECT match_key, card, SUM(holders) AS holders, MIN(first_seat) AS first_seat
    FROM faction_holders
    GROUP BY match_key, card
),
card_seat_events AS (
    SELECT
        m.match_key,
        e.seat,
        e.card,
        MAX(CASE WHEN e.kind = 'opening_hand' THEN 1 ELSE 0 END) AS in_opening,
        MAX(CASE WHEN e.kind IN ('opening_hand', 'drawn') THEN 1 ELSE 0 END) AS in_hand,
        MAX(CASE WHEN e.kind = 'played' THEN 1 ELSE 0 END) AS was_played,
        MIN(CASE WHEN e.kind = 'played' THEN e.turn END) AS first_played_turn
    FROM stg_card_events AS e
    INNER JOIN scope AS m ON m.match_id = e.match_id
    WHERE e.game = $game
      AND e.kind IN ('opening_hand', 'drawn', 'played')
    GROUP BY m.match_key, e.seat, e.card
),
lines AS (
    SELECT
        l.*,
        CASE WHEN h.holders > 1 THEN 0 ELSE 1 END AS counted,
        CASE WHEN l.seat = h.first_seat THEN 1 ELSE 0 END AS first_in_match,
        CASE WHEN l.seat = f.first_seat THEN 1 ELSE 0 END AS first_in_faction,
        g.format,
        g.match_date,
        g.deck_faction,
        g.won,
        g.drew,
        COALESCE(e.in_opening, 0) AS in_opening,
        COALESCE(e.in_hand, 0) AS in_hand,
        COALESCE(e.in_hand, 0) - COALESCE(e.in_opening, 0) AS drawn_later,
        COALESCE(e.was_played, 0) AS was_played,
        e.first_played_turn
    FROM deck_lines AS l
    INNER JOIN seat_games AS g ON g.match_key = l.match_key AND g.seat = l.seat
    INNER JOIN holders AS h ON h.match_key = l.match_key AND h.card = l.card
    INNER JOIN faction_holders AS f
        ON f.match_key = l.match_key AND f.card = l.card
       AND f.deck_faction IS NOT DISTINCT FROM g.deck_faction
    LEFT JOIN card_seat_events AS e
        ON e.match_key = l.match_key AND e.seat = l.seat AND e.card = l.card
),
counted_lines AS (
    SELECT *, counted * (1 - drew) AS decided
    FROM lines
)
SELECT
    format,
    match_date,
    deck_faction,
    card,
    MIN(card_name) AS card_name,
    MIN(section) AS section,
    COUNT(*) AS included,
    SUM(copies) AS copies,
    SUM((1 - counted) * first_in_match) AS mirror_matches,
    SUM((1 - counted) * first_in_faction) AS mirror_matches_in_faction,
    SUM(counted) AS games,
    SUM(counted * drew) AS deck_draws,
    SUM(decided) AS deck_decided,
    SUM(counted * won) AS deck_wins,
    SUM(was_played) AS played,
    SUM(counted * was_played) AS played_games,
    SUM(counted * was_played * drew) AS played_draws,
    SUM(decided * was_played) AS played_decided,
    SUM(counted * was_played * won) AS played_wins,
    SUM(in_hand) AS drawn,
    SUM(counted * in_hand) AS drawn_games,
    SUM(counted * in_hand * drew) AS drawn_draws,
    SUM(decided * in_hand) AS drawn_decided,
    SUM(counted * in_hand * won) AS drawn_wins,
    SUM(counted * in_opening) AS opening_games,
    SUM(counted * in_opening * drew) AS opening_draws,
    SUM(counted * in_opening * won) AS opening_wins,
    SUM(counted * drawn_later) AS drawn_later_games,
    SUM(counted * drawn_later * drew) AS drawn_later_draws,
    SUM(counted * drawn_later * won) AS drawn_later_wins,
    SUM(counted * (1 - in_hand)) AS not_drawn_games,
    SUM(counted * (1 - in_hand) * drew) AS not_drawn_draws,
    SUM(counted * (1 - in_hand) * won) AS not_drawn_wins,
    COUNT(first_played_turn) AS first_played,
    SUM(first_played_turn) AS first_played_turns
FROM counted_lines
GROUP BY format, match_date, deck_faction, card
