"""Two small test games that exercise what the card games do not: tables of 2 to 5 seats, sides
that win as a team, roles, a hidden piece on a graph, simultaneous secret choices, a Storyteller
and a public die (hunt: a fox against hounds; bid: two sides bidding in secret)."""
