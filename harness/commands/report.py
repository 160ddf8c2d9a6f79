"""``toolconform report``: the pages made over a folder of published certifications.

``report summary`` writes the engines × dialects matrix (``reports/README.md``), ``report
coverage`` the table of every parser name the engines register (``reports/COVERAGE.md``).
Both read only ``report.json`` files and the recorded registries, so a person can rebuild
them after editing or adding a report without running anything.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import UsageError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report",
        help="write the summary or the coverage page of a folder of certifications",
        description=(
            "Pages over a folder of published certification reports (each "
            "ADAPTER-VERSION/report.json, as reports/certification/ holds them)."
        ),
    )
    pages = parser.add_subparsers(title="pages", metavar="PAGE", required=True)
    for name, help_text in (
        ("summary", "the engines × dialects matrix with raw conformance and gate results"),
        (
            "coverage",
            "every tool and reasoning parser name the engines register, and what certifies it",
        ),
    ):
        page = pages.add_parser(name, help=help_text, description=help_text)
        page.add_argument(
            "reports", type=Path, metavar="REPORTS_DIR", help="e.g. reports/certification"
        )
        page.add_argument(
            "--out", required=True, type=Path, metavar="FILE", help="the Markdown file to write"
        )
        page.set_defaults(run=run, page=name)


def run(args: argparse.Namespace) -> int:
    from ..coverage import write_coverage
    from ..summary import write_summary

    if not args.reports.is_dir():
        raise UsageError(f"{args.reports} is not a folder of certification reports")
    write = write_summary if args.page == "summary" else write_coverage
    write(args.reports, args.out)
    print(f"{args.page} written to {args.out}")
    return 0
