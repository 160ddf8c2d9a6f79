"""tiktoken-style rank tables turned into ``tokenizers`` BPE models.

gpt-oss (o200k_harmony), Mistral tekken and the Kimi K2 surrogate ship as rank tables
(byte string → rank), the format tiktoken encodes with. Serving engines load them through
Hugging Face ``tokenizers``, which needs a vocabulary and a merge list. The conversion is the
one transformers applies (``TikTokenConverter``): every token's splits into two in-vocabulary
halves become merges ordered by the merged token's rank, and ``ignore_merges=True`` gives
tiktoken's rule that a pre-token which is itself in the vocabulary is one token. Converting a
200 K table takes seconds, so callers cache the result (see ``families``).
"""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers

Ranks = dict[bytes, int]

#: OpenAI's o200k pre-tokenizer pattern (tiktoken ``o200k_base``, also ``o200k_harmony``).
O200K_PATTERN = "|".join(
    (
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"\p{N}{1,3}",
        r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
        r"\s*[\r\n]+",
        r"\s+(?!\S)",
        r"\s+",
    )
)

#: Moonshot's Kimi K2 pattern (``tokenization_kimi.py``): Han runs are words of their own;
#: ``&&`` is a character-class intersection, which Oniguruma (``tokenizers``) supports.
KIMI_PATTERN = "|".join(
    (
        r"[\p{Han}]+",
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]*"
        r"[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]+"
        r"[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"\p{N}{1,3}",
        r" ?[^\s\p{L}\p{N}]+[\r\n]*",
        r"\s*[\r\n]+",
        r"\s+(?!\S)",
        r"\s+",
    )
)


@dataclass(frozen=True)
class Added:
    """One added token at a fixed id (``special`` decides skip_special_tokens)."""

    content: str
    id: int
    special: bool


def quicktok_vocab(data: bytes) -> Ranks:
    """Read quicktok's binary rank table: u32 count, then (u16 length, bytes, u32 rank)."""
    (count,) = struct.unpack_from("<I", data, 0)
    ranks: Ranks = {}
    offset = 4
    for _ in range(count):
        (length,) = struct.unpack_from("<H", data, offset)
        offset += 2
        token = data[offset : offset + length]
        offset += length
        (rank,) = struct.unpack_from("<I", data, offset)
        offset += 4
        ranks[token] = rank
    return ranks


def quicktok_specials(data: bytes) -> list[tuple[str, int]]:
    """Read quicktok's special-token table: u32 count, then (u32 rank, u16 length, utf-8)."""
    (count,) = struct.unpack_from("<I", data, 0)
    specials = []
    offset = 4
    for _ in range(count):
        rank, length = struct.unpack_from("<IH", data, offset)
        offset += 6
        specials.append((data[offset : offset + length].decode("utf-8"), rank))
        offset += length
    return specials


def tekken_ranks(document: Mapping[str, object]) -> tuple[Ranks, str, int]:
    """The rank table, pattern and number of control ids of a Mistral tekken JSON file.

    Only the first ``default_vocab_size - default_num_special_tokens`` ranks are used, as
    ``mistral_common`` does; model ids are ranks shifted by the control-token count.
    """
    config = document["config"]
    assert isinstance(config, Mapping)
    controls = int(config["default_num_special_tokens"])
    inner = int(config["default_vocab_size"]) - controls
    vocab = document["vocab"]
    assert isinstance(vocab, list)
    ranks = {
        base64.b64decode(entry["token_bytes"]): entry["rank"]
        for entry in vocab
        if entry["rank"] < inner
    }
    return ranks, str(config["pattern"]), controls


def tiktoken_file(ranks: Ranks) -> bytes:
    """The table in tiktoken's text format (base64 token, space, rank; one per line)."""
    lines = (
        base64.b64encode(token) + b" " + str(rank).encode()
        for token, rank in sorted(ranks.items(), key=lambda item: item[1])
    )
    return b"\n".join(lines) + b"\n"


def _byte_level_alphabet() -> dict[int, str]:
    """GPT-2's reversible byte → printable character map, which ``ByteLevel`` uses."""
    printable = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    mapping = {byte: chr(byte) for byte in printable}
    extra = 0
    for byte in range(256):
        if byte not in mapping:
            mapping[byte] = chr(256 + extra)
            extra += 1
    return mapping


def bpe_tokenizer(
    ranks: Ranks,
    pattern: str,
    added: Iterable[Added] = (),
    *,
    id_offset: int = 0,
    nfc: bool = False,
) -> Tokenizer:
    """A byte-level BPE ``Tokenizer`` equivalent to tiktoken on ``ranks`` and ``pattern``.

    Token ids are ``rank + id_offset`` (tekken reserves its first ids for control tokens).
    ``added`` tokens are matched atomically before pre-tokenization, at their exact ids.
    """
    alphabet = _byte_level_alphabet()

    def spell(token: bytes) -> str:
        return "".join(alphabet[byte] for byte in token)

    vocab = {spell(token): rank + id_offset for token, rank in ranks.items()}
    merges: list[tuple[int, int, int, str, str]] = []
    for token, rank in ranks.items():
        for cut in range(1, len(token)):
            left, right = token[:cut], token[cut:]
            left_rank, right_rank = ranks.get(left), ranks.get(right)
            if left_rank is not None and right_rank is not None:
                merges.append((rank, left_rank, right_rank, spell(left), spell(right)))
    merges.sort()
    model = models.BPE(
        vocab=vocab,
        merges=[(left, right) for *_, left, right in merges],
        ignore_merges=True,
    )
    tokenizer = Tokenizer(model)
    if nfc:
        tokenizer.normalizer = normalizers.NFC()
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(pattern), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tokenizer.decoder = decoders.ByteLevel()
    return _with_added_at_ids(tokenizer, added)


def _with_added_at_ids(tokenizer: Tokenizer, added: Iterable[Added]) -> Tokenizer:
    """Insert added tokens at their exact ids.

    ``tokenizers`` numbers a new added token after the model's vocabulary unless its content
    is already in the vocabulary, so each one is also entered there with its id. The BPE
    never produces them: added tokens are matched before pre-tokenization.
    """
    document = json.loads(tokenizer.to_str())
    tokens = sorted(added, key=lambda token: token.id)
    vocab = document["model"]["vocab"]
    for token in tokens:
        vocab[token.content] = token.id
    document["added_tokens"] = [
        {
            "id": token.id,
            "content": token.content,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": token.special,
        }
        for token in tokens
    ]
    return Tokenizer.from_str(json.dumps(document))
