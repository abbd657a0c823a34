"""The games: the table core (`tables/`) and one package per game family (`families/`)."""
