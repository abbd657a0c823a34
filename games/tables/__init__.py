"""The table core: everything a game needs around it, for any game family."""
