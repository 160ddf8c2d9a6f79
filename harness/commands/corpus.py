"""``toolconform corpus``: validate, build and grow the golden corpus."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ...reference import Request, get_dialect
from ..cases import KINDS, LEVELS, Expectation
from ..corpus_build import build, corpus_root, load_compiled, skeleton
from ..errors import UsageError
from ..execution import CaseResult
from ..generated import RECORD, RECORDED, record, recorded
from ..inputs import read_text, read_tools
from ..listing import add_format_argument, print_json, print_table
from ..pool import PoolConfig, run_cases


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "corpus",
        help="validate, build and add corpus cases",
        description="Work on the golden corpus (corpus/cases/<dialect>/<kind>/<slug>.yaml).",
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)

    validate = actions.add_parser(
        "validate",
        help="check every case file and every case against the reference parser",
        description=(
            "Check each case file against the schema, then run every case through the "
            "reference parser under all token-aligned chunkings: a case the reference does "
            "not satisfy is wrong (or found a reference bug). Also checks that corpus/dist is "
            "up to date with the sources."
        ),
    )
    validate.add_argument("--root", type=Path, help="corpus folder (default: the package's)")
    validate.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N")
    validate.set_defaults(run=run_validate)

    build_parser = actions.add_parser(
        "build",
        help="compile the case files into corpus/dist/cases.jsonl and manifest.json",
        description="Compile the sources; the output is reproducible byte for byte.",
    )
    build_parser.add_argument("--root", type=Path, help="corpus folder (default: the package's)")
    build_parser.add_argument(
        "--check", action="store_true", help="do not write; exit 1 if corpus/dist is out of date"
    )
    build_parser.set_defaults(run=run_build)

    new = actions.add_parser(
        "new",
        help="write a case skeleton from a model output (expected result from the reference)",
        description=(
            "Parse OUTPUT with the reference parser and write a case file whose expected "
            "result is that parse, for a person to review and complete."
        ),
    )
    new.add_argument("--dialect", required=True)
    new.add_argument("--kind", choices=KINDS, default="valid")
    new.add_argument("--slug", required=True, help="file name without .yaml (lowercase, dashes)")
    new.add_argument("--tools", metavar="FILE", help="JSON list of OpenAI tool objects")
    new.add_argument("--thinking", choices=("on", "off"))
    new.add_argument("--root", type=Path, help="corpus folder (default: the package's)")
    new.add_argument(
        "--print", action="store_true", help="print the skeleton instead of writing it"
    )
    new.add_argument("output", metavar="OUTPUT", help="model output file, or - for stdin")
    new.set_defaults(run=run_new)

    draw = actions.add_parser(
        "draw",
        help=f"grow the record of generated cases (corpus/{RECORD})",
        description=(
            "Draw round trips with the strategies (derandomized Hypothesis) and record them "
            f"in corpus/{RECORD}, the cases certify's --generated runs. What is recorded stays "
            "where it is, so expectations files keep naming the same cases; only dialects with "
            "fewer than --count are drawn for. Their expected results are not recorded: the "
            "reference computes them when the cases are loaded."
        ),
    )
    draw.add_argument(
        "--count",
        type=int,
        default=RECORDED,
        metavar="N",
        help=f"round trips per dialect (default {RECORDED}, full mode's --generated)",
    )
    draw.add_argument(
        "--dialect",
        action="append",
        metavar="NAME",
        help="draw for this dialect only (repeatable; default: every dialect with a renderer)",
    )
    draw.add_argument("--root", type=Path, help="corpus folder (default: the package's)")
    draw.set_defaults(run=run_draw)

    stats = actions.add_parser("stats", help="case counts by dialect × kind × level")
    stats.add_argument("--root", type=Path, help="corpus folder (default: the package's)")
    add_format_argument(stats)
    stats.set_defaults(run=run_stats)


def run_build(args: argparse.Namespace) -> int:
    root = args.root or corpus_root()
    console = Console(stderr=True)
    jsonl, manifest_text, problems = build(root)
    if problems:
        for problem in problems:
            console.print(f"[red]✗[/] {problem}", highlight=False)
        console.print(f"{len(problems)} problem(s); nothing written")
        return 1
    dist = root / "dist"
    current = [(dist / name) for name in ("cases.jsonl", "manifest.json")]
    fresh = [jsonl, manifest_text]
    if args.check:
        stale = [
            p.name
            for p, text in zip(current, fresh, strict=True)
            if not p.exists() or p.read_text(encoding="utf-8") != text
        ]
        if stale:
            console.print(
                f"[red]✗[/] corpus/dist is out of date ({', '.join(stale)}): "
                "run toolconform corpus build"
            )
            return 1
        console.print("corpus/dist is up to date")
        return 0
    dist.mkdir(exist_ok=True)
    for path, text in zip(current, fresh, strict=True):
        path.write_text(text, encoding="utf-8")
    console.print(
        f"{jsonl.count(chr(10))} cases compiled into {dist}/cases.jsonl and manifest.json"
    )
    return 0


def run_validate(args: argparse.Namespace) -> int:
    root = args.root or corpus_root()
    console = Console(stderr=True)
    jsonl, manifest_text, problems = build(root)
    unrecorded = _unrecorded(root)
    for problem in [*problems, *unrecorded]:
        console.print(f"[red]✗[/] {problem}", highlight=False)
    cases = load_compiled(jsonl)
    failures: list[str] = []

    def collect(result: CaseResult) -> None:
        for failure in result.failures:
            if failure.check.startswith("robustness."):
                continue
            failures.append(
                f"{failure.case}: the reference fails {failure.check}: {failure.message}"
                f" (chunking {list(failure.chunking.chunks)!r})"[:800]
            )

    config = PoolConfig(adapter_spec="reference", jobs=max(1, args.jobs), robustness=False)
    with console.status(f"running {len(cases)} cases through the reference parser"):
        run_cases(cases, config, collect)
    for failure in failures:
        console.print(f"[red]✗[/] {failure}", highlight=False)
    dist = root / "dist"
    stale = [
        name
        for name, text in (("cases.jsonl", jsonl), ("manifest.json", manifest_text))
        if not (dist / name).exists() or (dist / name).read_text(encoding="utf-8") != text
    ]
    if stale and not problems:
        console.print(
            f"[red]✗[/] corpus/dist is out of date ({', '.join(stale)}): "
            "run toolconform corpus build"
        )
    bad = len(problems) + len(unrecorded) + len(failures) + (1 if stale and not problems else 0)
    verdict = "[green]valid[/]" if not bad else f"[red]{bad} problem(s)[/]"
    console.print(f"{verdict}: {len(cases)} cases checked")
    return 0 if not bad else 1


def _unrecorded(root: Path) -> list[str]:
    """Dialects with a renderer whose generated cases are not all recorded."""
    from ...strategies import renderer_names

    draws = recorded(root)
    return [
        f"{RECORD}: {len(draws.get(name, []))} of {RECORDED} round trips of {name} are "
        f"recorded: run toolconform corpus draw --dialect {name}"
        for name in renderer_names()
        if len(draws.get(name, [])) < RECORDED
    ]


def run_new(args: argparse.Namespace) -> int:
    try:
        dialect = get_dialect(args.dialect)
    except KeyError as error:
        raise UsageError(error.args[0]) from None
    if not args.slug.replace("-", "").isalnum() or args.slug != args.slug.lower():
        raise UsageError(f"--slug {args.slug!r}: use lowercase letters, digits and dashes")
    output = read_text(args.output)
    tools = read_tools(args.tools) if args.tools else None
    thinking = {"on": True, "off": False}.get(args.thinking)
    request: dict = {}
    if tools is not None:
        request["tools"] = tools
    if thinking is not None:
        request["thinking"] = thinking
    parsed = dialect.new_parser(Request.from_openai(request)).parse_complete(output)
    expectation = Expectation.from_result(parsed)
    text = skeleton(args.dialect, args.kind, output, request, expectation)
    if args.print:
        sys.stdout.write(text)
        return 0
    root = args.root or corpus_root()
    path = root / "cases" / args.dialect / args.kind / f"{args.slug}.yaml"
    if path.exists():
        raise UsageError(f"{path} already exists: choose another --slug")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    Console(stderr=True).print(f"wrote {path}: review it, then run toolconform corpus build")
    return 0


def run_draw(args: argparse.Namespace) -> int:
    from ...strategies import renderer_names

    if args.count < 1:
        raise UsageError(f"--count {args.count} must be at least 1")
    rendered = renderer_names()
    for name in args.dialect or ():
        if name not in rendered:
            raise UsageError(
                f"dialect {name!r} has no renderer; dialects with one: {', '.join(rendered)}"
            )
    root = args.root or corpus_root()
    console = Console(stderr=True)
    with console.status(f"drawing up to {args.count} round trips per dialect"):
        added = record(root, args.count, args.dialect or rendered)
    grown = {name: count for name, count in added.items() if count}
    console.print(
        f"{sum(grown.values())} round trip(s) added to {root / RECORD}"
        + (f" ({', '.join(f'{name} {count}' for name, count in grown.items())})" if grown else "")
    )
    return 0


def run_stats(args: argparse.Namespace) -> int:
    jsonl, _, problems = build(args.root or corpus_root())
    cases = load_compiled(jsonl)
    rows: dict[str, dict[str, int]] = {}
    for case in cases:
        row = rows.setdefault(case.dialect, dict.fromkeys((*KINDS, *LEVELS), 0))
        row[case.kind] += 1
        row[case.level] += 1
    if problems:
        Console(stderr=True).print(
            f"{len(problems)} source problem(s): run toolconform corpus validate"
        )
    if args.format == "json":
        print_json({"cases": len(cases), "dialects": {d: rows[d] for d in sorted(rows)}})
        return 0
    table = Table(title=f"toolconform corpus: {len(cases)} cases")
    table.add_column("dialect")
    for kind in KINDS:
        table.add_column(kind, justify="right")
    table.add_column("must/should/may", justify="right")
    for dialect in sorted(rows):
        row = rows[dialect]
        table.add_row(
            dialect,
            *(str(row[kind]) for kind in KINDS),
            "/".join(str(row[level]) for level in LEVELS),
        )
    print_table(table)
    return 0
