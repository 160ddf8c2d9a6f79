"""The CI pieces a parser repository copies: the pytest extra and the GitHub Actions gate.

The workflow's own logic runs here: its first-run step under bash with a stand-in
``toolconform``, and its pull-request comment under Node with a stand-in GitHub client.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

from ..report_samples import certification_report

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "ci-templates" / "github-actions-toolconform.yml"


def steps() -> dict[str, dict]:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return {
        step.get("name", step.get("uses")): step for step in workflow["jobs"]["certify"]["steps"]
    }


def test_the_pytest_extra_brings_what_the_readme_gate_needs() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {requirement.split(">")[0].split("=")[0] for requirement in extras["pytest"]}
    assert {"pytest", "pytest-xdist"} <= names
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert (
        "pip install 'toolconform[pytest]'\npython -m pytest --pyargs toolconform.conformance"
        in readme
    )


def test_the_workflow_uploads_the_report_and_a_junit_file_always() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert workflow["permissions"]["pull-requests"] == "write"
    found = steps()
    assert '--junit "$REPORT/junit.xml"' in found["Certify"]["run"]
    upload = found["Upload the report, the JUnit file and the expectations file"]
    assert upload["if"] == "always()"
    assert "${{ env.REPORT }}/" in upload["with"]["path"]
    assert "${{ env.EXPECTATIONS }}" in upload["with"]["path"]


def _first_run(tmp_path: Path) -> tuple[subprocess.CompletedProcess, Path, Path]:
    """Run the first-run step under bash, ``toolconform`` standing in as a script that
    records its arguments and writes the expectations file as --update-expectations does."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    calls = tmp_path / "calls"
    fake = bin_dir / "toolconform"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {calls}\necho "[meta]" > "$EXPECTATIONS"\n')
    fake.chmod(0o755)
    output = tmp_path / "github-output"
    output.write_text("")
    environment = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_OUTPUT": str(output),
        "ADAPTER": "mypackage:factory",
        "DIALECTS": "--dialect qwen3",
        "EXPECTATIONS": "toolconform-expectations.toml",
        "REPORT": "toolconform-report",
    }
    script = steps()["First run: write the expectations file"]["run"]
    result = subprocess.run(
        ["bash", "-e", "-c", script], cwd=tmp_path, env=environment, capture_output=True, text=True
    )
    return result, calls, output


def test_the_first_run_writes_the_expectations_file_and_says_how_to_keep_it(tmp_path) -> None:
    result, calls, output = _first_run(tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "toolconform-expectations.toml").is_file()
    assert "--expectations toolconform-expectations.toml --update-expectations" in calls.read_text()
    assert "written=true" in output.read_text()
    assert "::warning" in result.stdout and "commit it" in result.stdout
    # Later runs find the file and leave it alone.
    calls.unlink()
    result, calls, output = _first_run(tmp_path)
    assert result.returncode == 0 and not calls.exists() and "written" not in output.read_text()


_GITHUB_SCRIPT = """
const calls = [];
const github = {
  rest: { issues: {
    listComments: "listComments",
    createComment: async (args) => calls.push(["create", args]),
    updateComment: async (args) => calls.push(["update", args]),
  } },
  paginate: async () => JSON.parse(process.env.EXISTING),
};
const context = {
  repo: { owner: "o", repo: "r" }, issue: { number: 7 }, serverUrl: "https://github.com",
  runId: 42,
};
const core = { warning: (m) => calls.push(["warning", m]) };
const run = new Function("github", "context", "core", "require",
  "return (async () => {" + require("fs").readFileSync(process.argv[2], "utf8") + "})();");
run(github, context, core, require).then(() => console.log(JSON.stringify(calls)));
"""


def _comment(tmp_path: Path, report: dict, existing: list | None = None) -> list:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the comment script is JavaScript")
    script = steps()["Comment the raw conformance on the pull request"]["with"]["script"]
    (tmp_path / "comment.js").write_text(script, encoding="utf-8")
    (tmp_path / "harness.js").write_text(_GITHUB_SCRIPT, encoding="utf-8")
    (tmp_path / "toolconform-report").mkdir(exist_ok=True)
    (tmp_path / "toolconform-report" / "report.json").write_text(json.dumps(report))
    environment = {
        **os.environ,
        "REPORT": "toolconform-report",
        "EXPECTATIONS": "toolconform-expectations.toml",
        "FIRST_RUN": "",
        "EXISTING": json.dumps(existing or []),
    }
    result = subprocess.run(
        [node, "harness.js", "comment.js"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_comment_shows_the_raw_conformance_beside_the_gate(tmp_path) -> None:
    ((action, args),) = _comment(tmp_path, certification_report())
    assert action == "create" and args["issue_number"] == 7
    body = args["body"]
    # computed as the harness does for a report without its own figure: 3 of 6
    assert "**Raw conformance: 50.0%** (3 of 6 cases" in body
    assert "**gate: FAIL** (3 unexpected, 1 known)" in body
    assert "| qwen3 | 66.7% (2/3) |" in body
    ((_, args),) = _comment(tmp_path, certification_report(newer=True))
    assert "**Raw conformance: 33.3%** (2 of 6 cases" in args["body"]  # the report's own


def test_a_later_push_updates_the_same_comment(tmp_path) -> None:
    existing = [{"id": 5, "body": "<!-- toolconform-conformance -->\nold"}]
    ((action, args),) = _comment(tmp_path, certification_report(), existing)
    assert action == "update" and args["comment_id"] == 5


def test_the_sharded_template_runs_every_shard_and_merges_them() -> None:
    import yaml

    from toolconform.harness.cli import build_parser

    workflow = yaml.safe_load(
        (ROOT / "ci-templates" / "github-actions-toolconform-full.yml").read_text()
    )
    shards = workflow["jobs"]["shard"]["strategy"]["matrix"]["shard"]
    run = next(
        step["run"]
        for step in workflow["jobs"]["shard"]["steps"]
        if "--shard" in step.get("run", "")
    )
    assert f"--shard ${{{{ matrix.shard }}}}/{len(shards)}" in run
    merge = next(
        step["run"]
        for step in workflow["jobs"]["merge"]["steps"]
        if "--merge" in step.get("run", "")
    )
    # The options the template uses are certify's own.
    options = {
        a
        for action in build_parser()._subparsers._group_actions[0].choices["certify"]._actions
        for a in action.option_strings
    }
    for line in (run, merge):
        for word in line.split():
            if word.startswith("--"):
                assert word in options, word
