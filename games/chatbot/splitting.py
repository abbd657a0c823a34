"""Messages cut to Discord's length (issue 40 item 5: long messages split cleanly)."""

from __future__ import annotations

LIMIT = 1900  # Discord refuses messages past 2,000 characters


def chunks(text: str, limit: int = LIMIT) -> list[str]:
    """`text` cut at line ends into messages Discord accepts; a line longer than a message is
    cut between words (mid-word only if one word is that long)."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        # A quoted line (a web player's words) stays quoted in every part it is cut into.
        quote = "> " if line.startswith("> ") else ""
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            cut = line.rfind(" ", len(quote), limit + 1)
            if cut <= len(quote):
                out.append(line[:limit])
                line = quote + line[limit:]
            else:
                out.append(line[:cut])
                line = quote + line[cut + 1 :]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current:
        out.append(current)
    return out
