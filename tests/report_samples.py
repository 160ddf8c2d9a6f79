"""Certification and throughput reports in their JSON form, small and varied, for the renderers.

``certification_report()`` follows ``harness/report.schema.json``: unexpected, known and
informative failures over three dialects (DeepSeek's markers among them), an
implementation-defined case with several allowed outcomes, a generated case, a parser error
with no result, a skipped case and a stale expectation. ``newer=True`` adds the fields that
newer reports carry (conformance, gate, coverage, isolation, reproduce, fingerprint).
"""

from __future__ import annotations

import copy
from typing import Any

DSML_CALL = (
    "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n"
    '```json\n{"city": "Oslo"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
)

CHECKS = [
    {"id": "run.no-error", "level": "must", "title": "no exception", "seed": "000",
     "description": "The parser does not raise.", "tier": "token"},
    {"id": "result.content", "level": "must", "title": "content", "seed": "000",
     "description": "Content equals the expectation.", "tier": "token"},
    {"id": "result.calls", "level": "must", "title": "calls", "seed": "000",
     "description": "Calls equal the expectation.", "tier": "token"},
    {"id": "robustness.char-splits", "level": "may", "title": "character splits", "seed": "000",
     "description": "Arbitrary character splits.", "tier": "robustness"},
]  # fmt: skip


def _failure(case: str, check: str, level: str, **fields: Any) -> dict[str, Any]:
    failure = {
        "case": case,
        "dialect": case.split("/")[1] if case.startswith("generated/") else case.split("/")[0],
        "check": check,
        "level": level,
        "status": "fail",
        "message": f"{check} differs",
        "chunking": {"family": "whole", "tier": "token", "chunks": ["x"]},
        "expected": {"content": "x", "reasoning": None, "tool_calls": []},
        "actual": {"content": "x", "reasoning": None, "tool_calls": []},
        "expected_failure": False,
    }
    failure.update(fields)
    return failure


def certification_report(
    *, name: str = "demo-engine", version: str = "1.0", newer: bool = False
) -> dict[str, Any]:
    failures = [
        _failure(
            "deepseek_v3/valid/one-call",
            "result.calls",
            "must",
            message="0 tool call(s) [] != expected 1 ['get_weather']",
            chunking={
                "family": "two-way:deepseek-v3",
                "tier": "token",
                "tokenizer": "deepseek-v3",
                "chunks": [DSML_CALL[:21], DSML_CALL[21:]],
            },
            expected={
                "content": "",
                "reasoning": None,
                "tool_calls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}],
                "finish_reason": "tool_calls",
            },
            actual={"content": DSML_CALL, "reasoning": None, "tool_calls": []},
        ),
        _failure(
            "deepseek_v3/valid/one-call",
            "result.content",
            "must",
            message="content has protocol text",
            chunking={
                "family": "two-way:deepseek-v3",
                "tier": "token",
                "tokenizer": "deepseek-v3",
                "chunks": [DSML_CALL[:21], DSML_CALL[21:]],
            },
            expected={
                "content": "",
                "reasoning": None,
                "tool_calls": [{"name": "get_weather", "arguments": {"city": "Oslo"}}],
            },
            actual={"content": DSML_CALL, "reasoning": None, "tool_calls": []},
        ),
        _failure(
            "qwen3/valid/text-after-call",
            "result.content",
            "must",
            message="content 'Hi' != expected 'Hi there'",
            chunking={"family": "pieces:qwen3", "tier": "token", "chunks": ["Hi", " there", ""]},
            expected={"content": "Hi there", "reasoning": None, "tool_calls": []},
            actual={"content": "Hi", "reasoning": None, "tool_calls": []},
            expected_failure=True,
            reason="drops text after a block",
            issue="https://example.org/issues/1",
        ),
        _failure(
            "qwen3/impl/second-think",
            "result.content",
            "may",
            message="content 'b' is none of the allowed outcomes",
            expected=[
                {"content": "bd", "reasoning": "ac", "tool_calls": []},
                {"content": "b<think>c</think>d", "reasoning": "a", "tool_calls": []},
            ],
            actual={"content": "b<think>c", "reasoning": "a", "tool_calls": []},
        ),
        _failure(
            "generated/qwen3/0",
            "robustness.char-splits",
            "may",
            message="a tag cut in two leaked",
            chunking={
                "family": "two-way:chars",
                "tier": "robustness",
                "chunks": ["<tool_", "call>"],
            },
        ),
        _failure(
            "glm45/invalid/broken",
            "run.no-error",
            "must",
            status="error",
            message="ValueError: boom (chunk 0)",
            actual=None,
        ),
    ]
    cases = [
        ("deepseek_v3/valid/one-call", "deepseek_v3", "valid", "must", "fail"),
        ("deepseek_v3/valid/plain", "deepseek_v3", "valid", "must", "pass"),
        ("qwen3/valid/text-after-call", "qwen3", "valid", "must", "fail"),
        ("qwen3/impl/second-think", "qwen3", "impl", "may", "fail"),
        ("generated/qwen3/0", "qwen3", "valid", "must", "fail"),
        ("glm45/invalid/broken", "glm45", "invalid", "should", "fail"),
        ("glm45/valid/skipped-one", "glm45", "valid", "must", "skip"),
    ]
    report: dict[str, Any] = {
        "schema_version": 1,
        "suite": {"name": "toolconform", "version": "0.1.0",
                  "corpus": {"cases": 7, "sha256": "0123456789abcdef", "path": "cases.jsonl"}},
        "implementation": {
            "name": name, "version": version, "language": "python",
            "dialects": {"qwen3": "--tool-call-parser hermes", "deepseek_v3": "deepseek_v3",
                         "glm45": "--tool-call-parser glm45"},
        },
        "adapter": "demo:factory",
        "mode": "quick",
        "started_at": "2026-11-30T10:00:00+00:00",
        "finished_at": "2026-11-30T10:01:00+00:00",
        "seconds": 60.0,
        "machine": {"python": "3.11.7", "implementation": "CPython", "platform": "Linux",
                    "machine": "x86_64", "cpus": 2},
        "verdict": "fail",
        "dialects": ["deepseek_v3", "glm45", "qwen3"],
        "checks": CHECKS,
        "totals": {"cases": 7, "skipped": 1, "runs": 120, "unexpected_failures": 3,
                   "expected_failures": 1, "informative_failures": 2, "stale_expectations": 1},
        "matrix": {
            "run.no-error": {"deepseek_v3": {"pass": 2, "fail": 0, "xfail": 0, "info": 0},
                             "glm45": {"pass": 0, "fail": 1, "xfail": 0, "info": 0},
                             "qwen3": {"pass": 3, "fail": 0, "xfail": 0, "info": 0}},
            "result.calls": {"deepseek_v3": {"pass": 1, "fail": 1, "xfail": 0, "info": 0},
                             "qwen3": {"pass": 3, "fail": 0, "xfail": 0, "info": 0}},
            "result.content": {"deepseek_v3": {"pass": 1, "fail": 1, "xfail": 0, "info": 0},
                               "qwen3": {"pass": 1, "fail": 0, "xfail": 1, "info": 1}},
            "robustness.char-splits": {"qwen3": {"pass": 2, "fail": 0, "xfail": 0, "info": 1}},
        },
        "failures": failures,
        "stale_expectations": [{"case": "qwen3/valid/fixed-long-ago", "check": "result.calls",
                                "reason": "was broken", "issue": ""}],
        "expectations_file": "toolconform-expectations.toml",
        "notes": ["Tool ids are random: they are not compared."],
        "cases": [
            {"id": case_id, "dialect": dialect, "kind": kind, "level": level, "status": status,
             "skipped": "dialect declared unsupported" if status == "skip" else None,
             "runs": 0 if status == "skip" else 20, "seconds": 0.1}
            for case_id, dialect, kind, level, status in cases
        ],
    }  # fmt: skip
    if newer:
        add_newer_fields(report)
    return report


def add_newer_fields(report: dict[str, Any]) -> None:
    """The fields of a schema-2 report (raw conformance, gate, coverage), with values the renderers must show as given."""
    report["conformance"] = {
        "must": {"passed": 2, "cases": 6},
        "dialects": {
            "deepseek_v3": {"passed": 1, "cases": 2},
            "glm45": {"passed": 0, "cases": 1},
            "qwen3": {"passed": 1, "cases": 3},
        },
    }
    report["gate"] = {
        "verdict": "fail",
        "reasons": ["3 unexpected failures", "1 stale expectation"],
        "known": 1,
        "unexpected": 3,
        "changed": 0,
        "stale": 1,
        "skipped": 1,
    }
    report["coverage"] = {
        "dialects": {
            "deepseek_v3": {"cases": 2, "ran": 2, "skipped": 0,
                            "chunking": {"model": "tokenizer", "families": ["deepseek-v3"],
                                         "reason": ""}},
            "glm45": {"cases": 2, "ran": 1, "skipped": 1,
                      "chunking": {"model": "tag-aligned", "families": [],
                                   "reason": "no faithful tokenizer"}},
            "qwen3": {"cases": 3, "ran": 3, "skipped": 0,
                      "chunking": {"model": "tokenizer", "families": ["qwen3"], "reason": ""}},
        },
        "allow_skips": True,
    }  # fmt: skip
    report["isolation"] = "sandboxed"
    for number, failure in enumerate(report["failures"]):
        failure["reproduce"] = (
            f"toolconform certify --adapter demo:factory --case {failure['case']}"
        )
        failure["fingerprint"] = f"fp-{number:04d}"


def renamed(report: dict[str, Any], *, version: str, passed: int) -> dict[str, Any]:
    """The same report for another version whose raw conformance is ``passed`` of 6."""
    other = copy.deepcopy(report)
    other["implementation"]["version"] = version
    add_newer_fields(other)
    other["conformance"]["must"]["passed"] = passed
    return other
