"""Table mode for multi-night Werewolf (issue 28): the moderator's moves and what the
moderator's screen shows, for a game played in person.

At a table one device, the host's seat, enters what the players do: the pack's victim, each
role's night choice, the votes (counted as rules/004 III describes, "normal": the voters of each
player tapped and counted live, or "advanced": who voted for whom, counted at the end), the
Oxford game's execution calls and fists, the day's abilities and the decisions on death. The
players' seats have no device. Every move is the engine's, sent for the player the moderator
names; `undo` takes back the last of them (a mis-tap). There is no clock: the moderator paces
the game, and only a night moves on by itself, once every role has been called.

The moves: moves.py (what each tap sends), night.py (a call's choice entered), sending.py
(the engine's refusals in the page's words), undo.py. The screen: screen.py puts together
calls.py (the night's calls), decisions.py (a decision awaited on a death), counting.py (the
votes), day.py (the day's abilities and execution calls), daybreak.py (what to read out) and
dashboard.py (every player at a glance); choices.py is what the moderator may pick.
"""
