"""The certification as JUnit XML, which every CI system renders natively.

One ``<testsuite>`` per dialect, one ``<testcase>`` per case: an unexpected or changed
failure is a ``<failure>`` (wrong result) or ``<error>`` (the parser raised, hung, crashed,
broke the contract or its output limit), a skipped case is ``<skipped>`` with its reason;
known failures and informative (may-level) ones are listed in the case's ``<system-out>`` —
the test passes, as the gate does. Reasons the gate fails that belong to no case (nothing
ran, a selected dialect ran nothing, cases the adapter refused) are one more test case,
``toolconform/gate``, so a CI page can never show green for a failing run. Like the other
renderers it reads the report's JSON form only.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from typing import Any

from .report_markdown import conformance, percent

_ERRORS = frozenset({"error", "timeout", "crash", "contract", "limit"})
#: Characters XML 1.0 cannot hold (controls, lone surrogates): written as their escapes.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub(lambda match: match.group().encode("unicode_escape").decode(), text)


def render_junit(report: dict[str, Any]) -> str:
    failures: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for failure in report["failures"]:
        failures[failure["case"]].append(failure)
    cases: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for case in report["cases"]:
        cases[case["dialect"]].append(case)
    passed, total = conformance(report)
    root = ET.Element(
        "testsuites",
        name=f"toolconform certify {report['adapter']}",
        tests=str(len(report["cases"]) + 1),
        time=f"{report['seconds']:.2f}",
    )
    for dialect in sorted(cases):
        suite = ET.SubElement(root, "testsuite", name=dialect, tests=str(len(cases[dialect])))
        counts = {"failures": 0, "errors": 0, "skipped": 0}
        for case in sorted(cases[dialect], key=lambda c: c["id"]):
            counts_for = _case(suite, case, failures.get(case["id"], []))
            for key, value in counts_for.items():
                counts[key] += value
        for key, value in counts.items():
            suite.set(key, str(value))
    gate = ET.SubElement(root, "testsuite", name="toolconform", tests="1")
    element = ET.SubElement(gate, "testcase", classname="toolconform", name="gate")
    summary = (
        f"must-level conformance {percent(passed, total)} ({passed}/{total}); "
        f"{report['gate']['known']} known failures; isolation {report['isolation']}"
    )
    if report["gate"]["reasons"]:
        failure = ET.SubElement(element, "failure", message="; ".join(report["gate"]["reasons"]))
        failure.text = summary
        gate.set("failures", "1")
    else:
        ET.SubElement(element, "system-out").text = summary
        gate.set("failures", "0")
    for node in root.iter():
        if node.text:
            node.text = _clean(node.text)
        for key, value in node.attrib.items():
            node.set(key, _clean(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _case(suite: ET.Element, case: dict[str, Any], failures: list[dict[str, Any]]) -> dict:
    element = ET.SubElement(
        suite,
        "testcase",
        classname=case["dialect"],
        name=case["id"],
        time=f"{case.get('seconds', 0):.3f}",
    )
    counts = {"failures": 0, "errors": 0, "skipped": 0}
    if case["status"] == "skip":
        ET.SubElement(element, "skipped", message=str(case.get("skipped") or ""))
        counts["skipped"] = 1
        return counts
    gating = [f for f in failures if not f["expected_failure"] and f["level"] in ("must", "should")]
    for failure in gating:
        tag = "error" if failure["status"] in _ERRORS else "failure"
        counts["errors" if tag == "error" else "failures"] = 1
        changed = (
            f" (changed: was {failure['changed_from']})" if failure.get("changed_from") else ""
        )
        node = ET.SubElement(
            element,
            tag,
            message=f"{failure['check']} ({failure['level']}){changed}: {failure['message'][:300]}",
            type=failure["check"],
        )
        node.text = _details(failure)
    others = [f for f in failures if f not in gating]
    if others:
        ET.SubElement(element, "system-out").text = "\n\n".join(
            ("known failure" if f["expected_failure"] else "informative (may level)")
            + f": {f['check']}: {f['message'][:300]}"
            for f in others
        )
    return counts


def _details(failure: dict[str, Any]) -> str:
    return "\n".join(
        (
            f"minimal chunking ({failure['chunking']['family']}): "
            + json.dumps(failure["chunking"]["chunks"], ensure_ascii=False)[:2000],
            "expected: " + json.dumps(failure.get("expected"), ensure_ascii=False)[:2000],
            "actual:   " + json.dumps(failure.get("actual"), ensure_ascii=False)[:2000],
            f"reproduce: {failure.get('reproduce', '')}",
        )
    )
