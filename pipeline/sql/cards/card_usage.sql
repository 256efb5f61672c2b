-- model: card_usage
-- grain: one row per card that sits in at least one deck of the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep cards in at least this many decks; NULL = 0)
-- A "deck" is a seat-game: one seat's deck in one match. "In hand" means in the hand the seat
-- kept (opening) or drawn later; "drawn" is either ("games in hand", 17lands' GIH); "played"
-- means a played event of that seat.
-- Usage (inclusion, copies, played and in-hand rates) counts every deck holding the card.
-- Win rates leave out the card's mirror matches, where another seat's deck holds the card too,
-- as the faction and archetype win rates leave out theirs: a card in both decks wins exactly
-- as often as it loses there. They are counted in mirror_matches; *_games are the decks
-- holding the card outside its mirrors, the win rates' sample sizes. A draw (the match
-- result) counts as not a win: every win rate is wins / games, draws in the games (*_draws);
-- the *_decided rates leave draws out instead (wins / (games - draws)). baseline_win_rate is
-- the win rate of every deck in scope, what a card's win rates are read against.
-- rate: inclusion_rate = included / decks
-- rate: inclusion_in_faction = included_in_faction / faction_decks
-- rate: played_rate = played / included
-- rate: drawn_rate = drawn / included
-- rate: baseline_win_rate = scope_wins / decks
-- rate: deck_win_rate_decided = deck_wins / deck_decided
-- rate: deck_win_rate = deck_wins / games
-- rate: win_rate_when_played_decided = played_wins / played_decided
-- rate: win_rate_when_played = played_wins / played_games
-- rate: win_rate_when_drawn_decided = drawn_wins / drawn_decided
-- rate: win_rate_when_drawn = drawn_wins / drawn_games
-- rate: win_rate_in_opening_hand = opening_wins / opening_games
-- rate: win_rate_when_drawn_later = drawn_later_wins / drawn_later_games
-- rate: win_rate_when_not_drawn = not_drawn_wins / not_drawn_games
-- difference: improvement_when_drawn = win_rate_when_drawn - win_rate_when_not_drawn
-- order: included DESC, card
-- python: pipeline.card_rates:finish
-- input: card_factions = pipeline.card_rates:card_factions
-- A card's own faction is the one it is made for (card_factions: a Vitorian nation colour, an
-- Eredan guild or Mercenaries; none for a utility, resource or neutral card): faction_decks
-- counts the decks in scope of that faction (an Eredan deck of several guilds counts for each),
-- included_in_faction those holding the card; both NULL for a card of no faction.
-- The event groups run on match_key (the matches of stg_scope numbered), an integer, not on
-- the match id text. A deck-game is a seat of stg_seats with its row of stg_decks: a reader
-- that narrows decks (the app's faction filter) narrows every count here, but a mirror is any
-- other deck of the match holding the card, in scope or not. Each deck line (one
-- per deck holding the card: audit decks_have_cards) meets the (match, seat, card) group of
-- its hand and play events (each of a card in its seat's deck: audit card_events_in_deck);
-- events of a card no deck holds make no row.
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
        d.faction AS deck_faction,
        CASE WHEN s.result = 'win' THEN 1 ELSE 0 END AS won,
        CASE WHEN s.result = 'draw' THEN 1 ELSE 0 END AS drew
    FROM stg_seats AS s
    INNER JOIN stg_decks AS d ON d.match_id = s.match_id AND d.seat = s.seat
    INNER JOIN scope AS m ON m.match_id = s.match_id
    WHERE s.game = $game
      AND d.game = $game
),
deck_totals AS (
    SELECT COUNT(*) AS decks, COALESCE(SUM(won), 0) AS scope_wins FROM seat_games
),
faction_sizes AS (
    SELECT deck_faction, COUNT(*) AS decks FROM seat_games GROUP BY deck_faction
),
own_faction AS (
    SELECT DISTINCT f.card, z.deck_faction
    FROM card_factions AS f
    INNER JOIN faction_sizes AS z
        ON ('+' || z.deck_faction || '+') LIKE ('%+' || f.faction || '+%')
),
card_faction_decks AS (
    SELECT o.card, SUM(z.decks) AS faction_decks
    FROM own_faction AS o
    INNER JOIN faction_sizes AS z ON z.deck_faction = o.deck_faction
    GROUP BY o.card
),
deck_lines AS (
    SELECT
        m.match_key,
        d.seat,
        d.card,
        d.card_name,
        d.section,
        d.copies,
        CASE WHEN COUNT(*) OVER (PARTITION BY m.match_key, d.card) > 1 THEN 0 ELSE 1 END
            AS counted
    FROM stg_deck_cards AS d
    INNER JOIN scope AS m ON m.match_id = d.match_id
    WHERE d.game = $game
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
        g.won,
        g.drew,
        CASE WHEN o.card IS NOT NULL THEN 1 ELSE 0 END AS in_own_faction,
        l.counted * (1 - g.drew) AS decided,
        COALESCE(e.in_opening, 0) AS in_opening,
        COALESCE(e.in_hand, 0) AS in_hand,
        COALESCE(e.in_hand, 0) - COALESCE(e.in_opening, 0) AS drawn_later,
        COALESCE(e.was_played, 0) AS was_played,
        e.first_played_turn
    FROM deck_lines AS l
    INNER JOIN seat_games AS g ON g.match_key = l.match_key AND g.seat = l.seat
    LEFT JOIN own_faction AS o ON o.card = l.card AND o.deck_faction = g.deck_faction
    LEFT JOIN card_seat_events AS e
        ON e.match_key = l.match_key AND e.seat = l.seat AND e.card = l.card
)
SELECT
    lines.card,
    MIN(card_name) AS card_name,
    MIN(section) AS section,
    MIN(t.decks) AS decks,
    COUNT(*) AS included,
    MIN(f.faction_decks) AS faction_decks,
    CASE WHEN MIN(f.faction_decks) IS NOT NULL THEN SUM(in_own_faction) END
        AS included_in_faction,
    AVG(CAST(copies AS DOUBLE)) AS avg_copies,
    COUNT(DISTINCT CASE WHEN counted = 0 THEN match_key END) AS mirror_matches,
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
    MIN(t.scope_wins) AS scope_wins,
    AVG(CAST(first_played_turn AS DOUBLE)) AS avg_turn_first_played
FROM lines
CROSS JOIN deck_totals AS t
LEFT JOIN card_faction_decks AS f ON f.card = lines.card
GROUP BY lines.card
HAVING COUNT(*) >= COALESCE($min_sample, 0)
