"""``toolconform site``: the static site over every certification and throughput report."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import UsageError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "site",
        help="build the static index of certification and throughput reports",
        description=(
            "Find every report.json (certification) and bench.json (throughput) under the "
            "given files and folders and write DIR/index.html: the implementations × "
            "dialects heat map of raw must-level conformance, linked into each report, each "
            "implementation's history across versions, and the throughput headlines."
        ),
    )
    parser.add_argument("reports", nargs="+", type=Path, metavar="REPORTS", help="files or folders")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="where to write")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..site import write_site

    try:
        reports = write_site(args.reports, args.out)
    except ValueError as error:
        raise UsageError(str(error)) from None
    print(
        f"site written to {args.out / 'index.html'}: {len(reports.certifications)} "
        f"certification and {len(reports.throughputs)} throughput reports"
    )
    return 0
