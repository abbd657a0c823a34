"""One Night Ultimate Werewolf: the house rules (rules/000) and the official rules (rules/002)."""
