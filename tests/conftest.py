"""Hypothesis profiles for the project's own tests.

Under ``CI`` Hypothesis loads its built-in deterministic ``ci`` profile by itself. The
``nightly`` profile (``HYPOTHESIS_PROFILE=nightly``) runs many more examples and keeps a
database of failures between runs; it is the one ``toolconform.strategies`` offers users.
"""

from __future__ import annotations

import os

from hypothesis import settings

from toolconform.strategies import register_profiles

register_profiles()
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])

pytest_plugins = ["pytester"]
