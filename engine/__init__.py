"""What it means: the rules of each game, replay, per-seat views, bots and the match simulator."""
