"""Bid: red against blue, every seat bidding in secret at once, a Storyteller ruling each round."""
