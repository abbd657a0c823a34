"""The game families the tables can play: each is a package with its own pure rules engine."""
