"""What every command of the bot shares: who wrote, what to answer, and a refusal."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sender:
    """Who wrote: their chat service, its id for them, and the name they show."""

    service: str
    user_id: str
    name: str


@dataclass(frozen=True, slots=True)
class Reply:
    """What to answer: `private` to the sender alone, `public` in the channel written in, and
    `delete` the sender's message (it was in public and must not stay there)."""

    private: tuple[str, ...] = ()
    public: tuple[str, ...] = ()
    delete: bool = False


class Refused(Exception):
    """A command that cannot be carried out; the message goes to the sender privately."""


def say(text: str, *, private: bool) -> Reply:
    """`text` said where the command came from: privately, or in the channel."""
    return Reply(private=(text,)) if private else Reply(public=(text,))
