"""Report folders: written whole or not at all, with the permissions of any other folder."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from toolconform.harness.report import write_report


@pytest.fixture
def umask_022():
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_a_new_report_folder_has_normal_permissions(tmp_path: Path, umask_022) -> None:
    target = tmp_path / "report"
    write_report(target, [("report.json", "{}\n")])
    assert stat.S_IMODE(target.stat().st_mode) == 0o755
    assert stat.S_IMODE((target / "report.json").stat().st_mode) == 0o644


def test_an_existing_folder_keeps_what_else_it_holds(tmp_path: Path, umask_022) -> None:
    target = tmp_path / "report"
    target.mkdir()
    (target / "README.md").write_text("kept")
    write_report(target, [("report.json", "{}\n")])
    assert (target / "README.md").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]  # no staging left
