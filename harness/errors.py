"""The one error type the command line turns into a single clear line and exit status 2."""

from __future__ import annotations


class UsageError(Exception):
    """A mistake in how a command was called or in a file it was given.

    The message names what was wrong and, where it helps, what to do instead; the command
    line prints it on one line without a traceback and exits with status 2.
    """
