"""What the real-code checks (Tests/Corpus/corpus.py, corpus_build.py, Tests/RealApps/realapps.py) say
about a command they ran, in one place."""

from __future__ import annotations

import signal


def describe_exit(result) -> str:
    """`exit N`, `timed out` (no code), or `killed by SIGNAL`, for any result with a `code`."""
    if result.code is None:
        return "timed out"
    if result.code < 0:
        try:
            return f"killed by {signal.Signals(-result.code).name}"
        except ValueError:
            return f"killed by signal {-result.code}"
    return f"exit {result.code}"


def excerpt(text: str, limit: int = 40) -> str:
    """The first `limit` lines, indented, with a count of the rest."""
    lines = text.rstrip("\n").splitlines()
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
    return "\n".join("    " + line for line in lines)
