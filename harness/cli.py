"""The ``toolconform`` command line: one subcommand per job."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..strategies.cache import keep_hypothesis_in_cache
from .commands import (
    bench,
    certify,
    corpus,
    dialects,
    fuzz,
    parse,
    report,
    site,
    tokenizers,
    verify_report,
)
from .errors import UsageError

_COMMANDS = (certify, verify_report, bench, parse, corpus, dialects, tokenizers, fuzz, site, report)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolconform",
        description=(
            "Conformance, fuzzing and benchmark suite for the streaming tool-call and "
            "reasoning parsers of LLM serving engines."
        ),
    )
    parser.add_argument("--version", action="version", version=f"toolconform {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for command in _COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    keep_hypothesis_in_cache()
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # A command whose list of files may be interleaved with its options names that list
    # ``intermixed`` (argparse alone stops filling a positional at the first option).
    files = getattr(args, getattr(args, "intermixed", ""), None)
    if extra and isinstance(files, list) and not any(arg.startswith("-") for arg in extra):
        files.extend(extra)
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except UsageError as error:
        print(f"toolconform: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("toolconform: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (e.g. ``head``) went away: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
