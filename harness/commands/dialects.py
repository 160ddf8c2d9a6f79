"""``toolconform dialects``: the registered dialects and their tags."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from ...reference import dialect_names, get_dialect


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "dialects",
        help="list the dialects the reference parser knows",
        description="List every registered dialect with its tags and tokenizer families.",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    table = Table(title="toolconform dialects")
    table.add_column("dialect", style="bold")
    table.add_column("description")
    table.add_column("tags (prefixes that can end a chunk)")
    table.add_column("tokenizer families")
    for name in dialect_names():
        dialect = get_dialect(name)
        tags = "\n".join(
            f"{tag!r}" + (f" ← {', '.join(map(repr, prefixes))}" if prefixes else "")
            for tag, prefixes in dialect.protocol_tags().items()
        )
        table.add_row(name, dialect.description, tags, ", ".join(dialect.tokenizer_families) or "—")
    Console().print(table)
    return 0
