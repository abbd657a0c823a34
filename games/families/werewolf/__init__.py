"""Multi-night Werewolf: the forum (rules/001), Oxford (rules/003) and 1.7.0 (rules/004) games."""
