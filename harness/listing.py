"""How the listing commands print: a table for people, or JSON for programs (``--format``).

On a terminal rich fits a table to the window; piped into a file or ``less`` it would fit
it to 80 columns and cut the widest column (the tags of ``toolconform dialects``, the very
point of that table) to ``'<｜tool▁calls▁be…``. Off a terminal a table is therefore printed
as wide as its content needs, and on one the column that matters folds onto more lines
instead of being cut (``overflow="fold"`` where the table is built). Cell text is plain
text, never console markup: a tag like ``[think]`` is shown, not read as a style.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text


def add_format_argument(parser: argparse.ArgumentParser, *, markdown: str = "") -> None:
    """``--format table|json``, and ``markdown`` where the listing is also a page of the docs
    (``markdown`` says which)."""
    parser.add_argument(
        "--format",
        choices=("table", "json", "markdown") if markdown else ("table", "json"),
        default="table",
        help="a table for people (default) or JSON for programs"
        + (f"; markdown: {markdown}" if markdown else ""),
    )


def cell(value: object) -> Text:
    """A table cell holding ``value`` as plain text."""
    return Text(str(value))


def print_table(table: Table) -> None:
    console = Console()
    if not console.is_terminal:
        unbounded = console.options.update_width(1 << 16)
        width = console.measure(table, options=unbounded).maximum
        console = Console(width=max(80, width), soft_wrap=False)
    console.print(table)


def print_json(value: Any) -> None:
    json.dump(value, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
