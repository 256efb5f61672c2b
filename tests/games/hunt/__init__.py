"""Hunt: one fox against one to four hounds on a small field of paths; the fox runs unseen."""
