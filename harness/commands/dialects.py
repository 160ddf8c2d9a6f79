"""``toolconform dialects``: the registered dialects and their tags."""

from __future__ import annotations

import argparse
from typing import Any

from rich.table import Table

from ...reference import dialect_names, get_dialect
from ..listing import add_format_argument, cell, print_json, print_table


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "dialects",
        help="list the dialects the reference parser knows",
        description="List every registered dialect with its tags and tokenizer families.",
    )
    add_format_argument(parser)
    parser.set_defaults(run=run)


def dialect_rows() -> list[dict[str, Any]]:
    """Each dialect: name, description, tags with the prefixes that can end a chunk, families."""
    rows = []
    for name in dialect_names():
        dialect = get_dialect(name)
        rows.append(
            {
                "dialect": name,
                "description": dialect.description,
                "tags": {tag: list(prefixes) for tag, prefixes in dialect.protocol_tags().items()},
                "tokenizer_families": list(dialect.tokenizer_families),
            }
        )
    return rows


def run(args: argparse.Namespace) -> int:
    rows = dialect_rows()
    if args.format == "json":
        print_json(rows)
        return 0
    table = Table(title="toolconform dialects")
    table.add_column("dialect", style="bold")
    table.add_column("description")
    table.add_column("tags (prefixes that can end a chunk)", overflow="fold")
    table.add_column("tokenizer families")
    for row in rows:
        tags = "\n".join(
            f"{tag!r}" + (f" ← {', '.join(map(repr, prefixes))}" if prefixes else "")
            for tag, prefixes in row["tags"].items()
        )
        families = ", ".join(row["tokenizer_families"]) or "—"
        table.add_row(cell(row["dialect"]), cell(row["description"]), cell(tags), cell(families))
    print_table(table)
    return 0
