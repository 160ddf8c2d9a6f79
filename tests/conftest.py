"""Hypothesis profiles for the project's own tests.

Under ``CI`` Hypothesis loads its built-in deterministic ``ci`` profile by itself. The
``nightly`` profile (``HYPOTHESIS_PROFILE=nightly``) runs many more examples and keeps a
database of failures between runs.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

settings.register_profile(
    "nightly",
    max_examples=2000,
    deadline=None,
    database=DirectoryBasedExampleDatabase(".hypothesis/nightly"),
    suppress_health_check=[HealthCheck.too_slow],
)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])

pytest_plugins = ["pytester"]
