"""Loading a tokenizer from where an engine author already has one.

Engine authors hold tokenizers as a ``tokenizer.json``, a ``transformers`` tokenizer
directory or a hub model id. All three are accepted; what comes back is always the
``tokenizers.Tokenizer`` that fast serving paths decode with (``backend_tokenizer``), so the
chunks are the ones the engine streams. ``transformers`` is only imported for the last two.
"""

from __future__ import annotations

from pathlib import Path

from tokenizers import Tokenizer


def load_location(location: str | Path) -> Tokenizer:
    """A ``Tokenizer`` from a tokenizer.json path, a tokenizer directory or a hub model id."""
    path = Path(location)
    if path.is_file():
        return Tokenizer.from_file(str(path))
    if path.is_dir() and (path / "tokenizer.json").is_file() and not _has_config(path):
        return Tokenizer.from_file(str(path / "tokenizer.json"))
    return _from_transformers(str(location))


def _has_config(directory: Path) -> bool:
    return (directory / "tokenizer_config.json").is_file()


def _from_transformers(location: str) -> Tokenizer:
    """``AutoTokenizer.from_pretrained`` (a directory, or a hub id when online)."""
    try:
        from transformers import AutoTokenizer
    except ImportError:
        raise ImportError(
            f"loading {location!r} needs transformers (pip install transformers), or give the "
            "path of a tokenizer.json"
        ) from None
    tokenizer = AutoTokenizer.from_pretrained(location)
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None:
        raise TypeError(
            f"{location!r} loads as a slow {type(tokenizer).__name__}; streaming chunks need a "
            "fast tokenizer (tokenizer.json)"
        )
    return backend
