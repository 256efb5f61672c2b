-- model: card_usage
-- grain: one row per card that sits in at least one deck of the matches in scope
-- params: $game (required); $format, $date_from, $date_to (match start day, UTC, inclusive;
--         NULL = unbounded); $min_sample (keep cards in at least this many decks; NULL = 0);
--         $faction (keep the decks of this faction; NULL = all)
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
-- The counts are rollup_card_usage's (each deck line's flags, made within its match) and
-- rollup_deck_games' (the decks in scope), summed over the scope. $faction (NULL = every deck)
-- keeps the decks of one faction: every count is then among them, but a mirror is still any
-- other deck of the match holding the card, of any faction.
WITH usage AS (
    SELECT * FROM rollup_card_usage WHERE $faction IS NULL OR deck_faction = $faction
),
faction_sizes AS (
    SELECT faction AS deck_faction, SUM(seat_games) AS decks, SUM(seat_wins) AS wins
    FROM rollup_deck_games
    WHERE $faction IS NULL OR faction = $faction
    GROUP BY faction
),
deck_totals AS (
    SELECT COALESCE(SUM(decks), 0) AS decks, COALESCE(SUM(wins), 0) AS scope_wins
    FROM faction_sizes
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
lines AS (
    SELECT u.*, CASE WHEN o.card IS NOT NULL THEN u.included ELSE 0 END AS in_own_faction
    FROM usage AS u
    LEFT JOIN own_faction AS o ON o.card = u.card AND o.deck_faction = u.deck_faction
)
SELECT
    lines.card,
    MIN(card_name) AS card_name,
    MIN(section) AS section,
    MIN(t.decks) AS decks,
    SUM(included) AS included,
    MIN(f.faction_decks) AS faction_decks,
    CASE WHEN MIN(f.faction_decks) IS NOT NULL THEN SUM(in_own_faction) END
        AS included_in_faction,
    CAST(SUM(copies) AS DOUBLE) / SUM(included) AS avg_copies,
    CASE WHEN $faction IS NULL THEN SUM(mirror_matches) ELSE SUM(mirror_matches_in_faction) END
        AS mirror_matches,
    SUM(games) AS games,
    SUM(deck_draws) AS deck_draws,
    SUM(deck_decided) AS deck_decided,
    SUM(deck_wins) AS deck_wins,
    SUM(played) AS played,
    SUM(played_games) AS played_games,
    SUM(played_draws) AS played_draws,
    SUM(played_decided) AS played_decided,
    SUM(played_wins) AS played_wins,
    SUM(drawn) AS drawn,
    SUM(drawn_games) AS drawn_games,
    SUM(drawn_draws) AS drawn_draws,
    SUM(drawn_decided) AS drawn_decided,
    SUM(drawn_wins) AS drawn_wins,
    SUM(opening_games) AS opening_games,
    SUM(opening_draws) AS opening_draws,
    SUM(opening_wins) AS opening_wins,
    SUM(drawn_later_games) AS drawn_later_games,
    SUM(drawn_later_draws) AS drawn_later_draws,
    SUM(drawn_later_wins) AS drawn_later_wins,
    SUM(not_drawn_games) AS not_drawn_games,
    SUM(not_drawn_draws) AS not_drawn_draws,
    SUM(not_drawn_wins) AS not_drawn_wins,
    MIN(t.scope_wins) AS scope_wins,
    CAST(SUM(first_played_turns) AS DOUBLE) / NULLIF(SUM(first_played), 0)
        AS avg_turn_first_played
FROM lines
CROSS JOIN deck_totals AS t
LEFT JOIN card_faction_decks AS f ON f.card = lines.card
GROUP BY lines.card
HAVING SUM(included) >= COALESCE($min_sample, 0)
