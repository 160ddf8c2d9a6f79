"""Corpus tooling: read the human-authored case files, validate them, compile them.

Sources are YAML files ``corpus/cases/<dialect>/<kind>/<slug>.yaml`` (the id is the path
without the extension). ``build`` compiles them into ``corpus/dist/cases.jsonl`` — one case
per line, tools resolved, output decoded, sorted by id, byte-for-byte reproducible — plus
``manifest.json`` with counts and hashes, so that runners in any language need no Python and
no YAML. Every problem in a source file is reported with its file and field; the other files
are still read.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from ..reference import dialect_names
from .cases import KINDS, Case, Expectation

CORPUS_FORMAT = 1


def corpus_root() -> Path:
    """The corpus folder of the installed package (the repository's ``corpus/``)."""
    return Path(str(resources.files("toolconform.corpus")))


@dataclass
class SourceProblem:
    path: str
    field: str
    message: str

    def __str__(self) -> str:
        return (
            f"{self.path}: {self.field}: {self.message}"
            if self.field
            else f"{self.path}: {self.message}"
        )


def _schema(root: Path) -> dict[str, Any]:
    return json.loads((root / "case.schema.json").read_text(encoding="utf-8"))


def read_sources(root: Path | None = None) -> tuple[list[dict[str, Any]], list[SourceProblem]]:
    """Every source case compiled to its JSON form, and the problems found on the way."""
    root = root or corpus_root()
    validator = jsonschema.Draft202012Validator(_schema(root))
    tools = {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in (root / "tools").glob("*.json")
    }
    dialects = set(dialect_names())
    compiled, problems = [], []
    for path in sorted((root / "cases").rglob("*")):
        if path.is_dir():
            continue
        relative = path.relative_to(root / "cases")
        shown = f"corpus/cases/{relative.as_posix()}"
        if path.suffix != ".yaml":
            problems.append(SourceProblem(shown, "", "not a .yaml case file"))
            continue
        parts = relative.with_suffix("").parts
        if len(parts) != 3:
            problems.append(
                SourceProblem(shown, "", "must be at cases/<dialect>/<kind>/<slug>.yaml")
            )
            continue
        dialect, kind, _ = parts
        if dialect not in dialects:
            problems.append(SourceProblem(shown, "", f"unknown dialect folder {dialect!r}"))
            continue
        if kind not in KINDS:
            problems.append(
                SourceProblem(shown, "", f"kind folder {kind!r} is not one of {', '.join(KINDS)}")
            )
            continue
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as error:
            problems.append(SourceProblem(shown, "", f"not valid YAML: {error}"))
            continue
        errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
        if errors:
            for error in errors:
                field = "/".join(str(p) for p in error.path) or "(top level)"
                problems.append(SourceProblem(shown, field, error.message))
            continue
        if _has_lone_surrogate(data):
            problems.append(SourceProblem(shown, "", LONE_SURROGATE))
            continue
        case, case_problems = _compile(data, "/".join(parts), dialect, kind, tools, shown)
        problems.extend(case_problems)
        if not case_problems:
            compiled.append(case)
    return compiled, problems


def _compile(
    data: dict[str, Any], case_id: str, dialect: str, kind: str, tools: dict[str, Any], shown: str
) -> tuple[dict[str, Any], list[SourceProblem]]:
    problems = []
    if "output_base64" in data:
        try:
            output = base64.b64decode(data["output_base64"], validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError) as error:
            problems.append(
                SourceProblem(shown, "output_base64", f"not base64 of UTF-8 text: {error}")
            )
            output = ""
    else:
        output = data["output"]
    request = dict(data.get("request") or {})
    resolved = []
    for position, tool in enumerate(request.get("tools") or []):
        if isinstance(tool, str):
            if tool not in tools:
                problems.append(
                    SourceProblem(
                        shown, f"request/tools/{position}", f"no corpus/tools/{tool}.json"
                    )
                )
                continue
            resolved.append(tools[tool])
        else:
            resolved.append(tool)
    if "tools" in request:
        request["tools"] = resolved
    expectations = [data["expect"]] if "expect" in data else list(data.get("expect_any") or [])
    if kind == "impl" and len(expectations) < 2:
        problems.append(
            SourceProblem(shown, "expect_any", "an impl case lists at least two allowed outcomes")
        )
    elif kind != "impl" and "expect" not in data:
        problems.append(SourceProblem(shown, "expect", f"a {kind} case needs 'expect'"))
    if kind == "pathological":
        if "scaling" not in data:
            problems.append(SourceProblem(shown, "scaling", "a pathological case needs 'scaling'"))
        elif data["scaling"]["placeholder"] not in output:
            problems.append(
                SourceProblem(shown, "scaling/placeholder", "does not occur in the output")
            )
    elif "scaling" in data:
        problems.append(SourceProblem(shown, "scaling", "only pathological cases scale"))
    for position, expectation in enumerate(expectations):
        for index, call in enumerate(expectation.get("tool_calls") or []):
            raw = call.get("arguments_raw")
            if raw is not None and "arguments" in call:
                try:
                    if json.loads(raw) != call["arguments"]:
                        problems.append(
                            SourceProblem(
                                shown,
                                f"expect/{position}/tool_calls/{index}",
                                "arguments_raw does not parse to arguments",
                            )
                        )
                except ValueError:
                    problems.append(
                        SourceProblem(
                            shown, f"expect/{position}/tool_calls/{index}/arguments_raw", "not JSON"
                        )
                    )
    case = {
        "id": case_id,
        "dialect": dialect,
        "kind": kind,
        "level": data["level"],
        "description": data["description"],
        "features": sorted(data.get("features") or []),
        "source": data["source"],
        "provenance": data["provenance"],
        "request": request,
        "output": output,
        "expect": expectations,
    }
    if "scaling" in data:
        case["scaling"] = data["scaling"]
    return case, problems


LONE_SURROGATE = (
    "holds a lone surrogate (a \\ud800-\\udfff escape without its pair), which UTF-8 cannot "
    "carry: the compiled corpus is UTF-8 for runners in every language; spell the text otherwise"
)


def _has_lone_surrogate(data: Any) -> bool:
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def compiled_lines(cases: list[dict[str, Any]]) -> str:
    """The cases.jsonl text: sorted by id, canonical JSON, one case per line."""
    ordered = sorted(cases, key=lambda case: case["id"])
    return "".join(
        json.dumps(case, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
        for case in ordered
    )


def manifest(cases: list[dict[str, Any]], jsonl: str) -> dict[str, Any]:
    """Counts by dialect × kind × level and the hash of the compiled file (no timestamps)."""
    counts: Counter[tuple[str, str, str]] = Counter(
        (case["dialect"], case["kind"], case["level"]) for case in cases
    )
    by_dialect: dict[str, dict[str, dict[str, int]]] = {}
    for (dialect, kind, level), count in sorted(counts.items()):
        by_dialect.setdefault(dialect, {}).setdefault(kind, {})[level] = count
    return {
        "format": CORPUS_FORMAT,
        "cases": len(cases),
        "sha256": hashlib.sha256(jsonl.encode("utf-8")).hexdigest(),
        "dialects": len(by_dialect),
        "counts": by_dialect,
        "files": {"cases": "cases.jsonl"},
    }


def build(root: Path | None = None) -> tuple[str, str, list[SourceProblem]]:
    """The compiled cases and manifest texts (nothing is written when there are problems)."""
    cases, problems = read_sources(root)
    jsonl = compiled_lines(cases)
    manifest_text = json.dumps(manifest(cases, jsonl), indent=2, sort_keys=True) + "\n"
    return jsonl, manifest_text, problems


def corpus_identity(path: Path) -> dict[str, Any]:
    """Which corpus a report was made with: its case count and hash."""
    data = path.read_bytes()
    return {
        "cases": data.count(b"\n"),
        "sha256": hashlib.sha256(data).hexdigest(),
        "path": path.name,
    }


def skeleton(
    dialect: str, kind: str, output: str, request: dict[str, Any], result: Expectation
) -> str:
    """A new case file for a person to review: the expected result is the reference's parse."""
    data: dict[str, Any] = {
        "description": "TODO: what this case is about, in one sentence",
        "level": "must" if kind == "valid" else "should",
        "features": [],
        "source": "TODO: the seed section or specification",
        "provenance": {"origin": "hand-written"},
    }
    if request:
        data["request"] = request
    data["output"] = output
    expectation = result.to_json()
    data["expect"] = {
        "content": expectation["content"],
        "reasoning": expectation["reasoning"],
        "tool_calls": expectation["tool_calls"],
        "finish_reason": expectation["finish_reason"],
    }
    header = (
        f"# {dialect}/{kind}: filled from the reference parser's result. Review every field:\n"
        "# the reference is the oracle only once a person has agreed with it.\n"
    )
    return header + yaml.dump(
        data, Dumper=_BlockDumper, allow_unicode=True, sort_keys=False, width=100
    )


class _BlockDumper(yaml.SafeDumper):
    """Writes multi-line strings as literal blocks, the readable form for model outputs."""


def _represent_string(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _represent_string)


def load_compiled(jsonl: str) -> list[Case]:
    return [Case.from_json(json.loads(line)) for line in jsonl.splitlines() if line.strip()]
