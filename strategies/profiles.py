"""Hypothesis profiles for suites that use toolconform's strategies.

Under ``CI`` Hypothesis loads its built-in deterministic ``ci`` profile by itself
(derandomized, no database): a failure in a pull request reproduces from the printed
example. ``nightly`` runs many more random examples and keeps failures in a database
between runs, in toolconform's cache directory. Registering never loads a profile: choose
one with ``--hypothesis-profile`` or ``settings.load_profile``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import InvalidArgument

from .cache import cache_dir

NIGHTLY = "nightly"


def register_profiles(*, database_directory: str | None = None) -> None:
    """Register the ``nightly`` profile (idempotent: a second call changes nothing).

    ``register_profiles(); settings.load_profile("nightly")``. Its database is
    ``database_directory``, by default ``hypothesis/nightly`` in toolconform's cache
    (``$TOOLCONFORM_CACHE`` or the user cache directory), not the current folder.
    """
    try:
        settings.get_profile(NIGHTLY)
    except InvalidArgument:  # not registered yet
        settings.register_profile(
            NIGHTLY,
            max_examples=2000,
            deadline=None,
            database=DirectoryBasedExampleDatabase(
                database_directory or cache_dir() / "hypothesis" / "nightly"
            ),
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
