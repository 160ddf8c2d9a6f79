"""Character classes of the drift-tolerant tool-tag shell (seed 003 §1, research notes §3.2-3.3).

Models drift the punctuation of ``<|DSML|invoke name="x">`` in many ways: fullwidth and CJK
brackets, curly quotes, exotic pipes and dashes, zero-width noise. These classes say which
characters a tag shell may use in each role. They are applied only inside a candidate tag
shell, never to prose, parameter bodies or CDATA (seed §1: "candidate-span
canonicalization").
"""

from __future__ import annotations

import re
from functools import cache

#: Unicode ``Cf`` (format) characters (zero-width spaces and joiners, bidi marks, BOM, …) and
#: the control characters that are not whitespace (raw STX ``\x02`` among them): the noise
#: skipped anywhere inside a tag shell and between the letters of a keyword.
_IGNORABLE_RANGES = (
    (0x00, 0x08), (0x0E, 0x1F), (0x7F, 0x84), (0x86, 0x9F), (0xAD, 0xAD), (0x600, 0x605),
    (0x61C, 0x61C), (0x6DD, 0x6DD), (0x70F, 0x70F), (0x890, 0x891), (0x8E2, 0x8E2),
    (0x180E, 0x180E), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F),
    (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
    (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)  # fmt: skip
IGNORABLE = frozenset(chr(code) for low, high in _IGNORABLE_RANGES for code in range(low, high + 1))
IGNORABLE_CLASS = "".join(
    re.escape(chr(low)) if low == high else f"{re.escape(chr(low))}-{re.escape(chr(high))}"
    for low, high in _IGNORABLE_RANGES
)

#: What Go's ``unicode.IsSpace`` accepts (ds2api is written in Go; its trims use this set).
GO_SPACE_CLASS = "\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
GO_SPACE = frozenset("\t\n\v\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | frozenset(
    map(chr, range(0x2000, 0x200B))
)

#: Whitespace inside a shell: Go space plus SentencePiece's ``▁``.
SHELL_SPACE = GO_SPACE | {"\u2581"}

TAG_OPEN = frozenset("<＜〈")  # what may start a tool tag
CDATA_TAG_OPEN = frozenset("<＜﹤〈")  # a CDATA opener also accepts the small ``﹤``
TAG_CLOSE = frozenset(">＞﹥〉")  # a tag-end delimiter
SLASHES = frozenset("/／∕⁄⧸")
PIPES = frozenset("|│∣❘ǀ￨")
EQUALS = frozenset("=＝﹦꞊")
UNDERSCORES = frozenset("_＿﹍﹎﹏")
DASHES = frozenset("-‐‑‒–—―−﹣－")
#: Opening quote → the one closing quote that ends the value.
QUOTE_PAIRS = {
    '"': '"',
    "'": "'",
    "“": "”",
    "‘": "’",
    "＂": "＂",
    "＇": "＇",
    "„": "”",
    "‟": "”",
}

_WIDTH_FOLD = {chr(code): chr(code - 0xFEE0) for code in range(0xFF01, 0xFF5F)}
_WIDTH_FOLD.update({"〈": "<", "〉": ">", "“": '"', "”": '"', "‘": "'", "’": "'"})
#: ``fold_width`` as a lookup for hot loops: ``WIDTH_FOLD.get(ch, ch)``.
WIDTH_FOLD = _WIDTH_FOLD


def fold_width(ch: str) -> str:
    """Fullwidth ASCII to ASCII, CJK angle brackets to ``<``/``>``, curly quotes to straight."""
    return _WIDTH_FOLD.get(ch, ch)


def ascii_at(text: str, index: int) -> str:
    """The character at ``index`` as folded ASCII, or ``""`` when it is not ASCII after folding."""
    folded = fold_width(text[index])
    return folded if folded < "\x80" else ""


def is_ascii_alnum(ch: str) -> bool:
    return ch < "\x80" and ch.isalnum()


_NOT_SEPARATOR = frozenset("\x00<>/=\"'[ \t\n\r")


@cache
def is_separator(ch: str) -> bool:
    """Whether ``ch`` may act as a prefix separator (``|``, ``！``, ``、``, ``␂``, ``💥``, …).

    Anything that is not structural (``< > / = " ' [``), not whitespace and not an ASCII
    letter or digit after width folding.
    """
    folded = fold_width(ch)
    if folded in _NOT_SEPARATOR or ch in SHELL_SPACE:
        return False
    return not is_ascii_alnum(folded)


def _keyword_fold_table() -> dict[str, str]:
    """Characters that count as a letter of a tool keyword (confusables of seed §1)."""
    confusables = {
        "a": "аΑα",
        "c": "сСϲϹ",
        "d": "ԁⅾ",
        "e": "еЕΕε",
        "i": "іІΙιı",
        "k": "кКΚκ",
        "l": "ⅼ",
        "m": "мМΜμ",
        "n": "ո",
        "o": "оОΟο",
        "p": "рРΡρ",
        "s": "ѕЅ",
        "t": "тТΤτ",
        "v": "νΝѵⅴ",
    }
    table: dict[str, str] = {}
    for letter in "acdeiklmnoprstv":
        forms = {letter, chr(ord(letter) - 0x20), chr(ord(letter) + 0xFEE0)}
        forms.add(chr(ord(letter) - 0x20 + 0xFEE0))
        for form in (*forms, *confusables.get(letter, "")):
            table[form] = letter
            upper = form.upper()
            if len(upper) == 1 and upper.lower() == form:
                table[upper] = letter  # Go lower-cases before comparing
    table["\u212a"] = "k"  # KELVIN SIGN lower-cases to k
    table["\u0130"] = "i"  # Go lower-cases İ to a plain i
    return table


#: Character → the keyword letter it stands for.
KEYWORD_FOLD = _keyword_fold_table()


def go_trim(text: str) -> str:
    """``strings.TrimSpace``: strip Go whitespace at both ends."""
    return text.strip(_GO_TRIM_CHARS)


_GO_TRIM_CHARS = "".join(sorted(GO_SPACE))
