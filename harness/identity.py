"""What exactly was certified: the adapter's files, by digest, found without running them.

A report records the identity of the adapter it certified — for a Python factory the file of
its module (resolved on the import path without importing anything), for a ``cmd:`` program
its command line and the digests of its executable and of every file the command names —
so that ``toolconform verify-report`` can tell whether the adapter at hand is still the one
the report speaks about. A digest stored next to a report proves nothing on its own: whoever
can rewrite the report can rewrite the digest. It lets a reader who holds the adapter check
that a report is about it, and re-run sampled cases to confirm the verdict.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

from .adapters.loading import BUILTIN, check_spec


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _file(path: Path) -> dict[str, str]:
    return {"path": str(path), "sha256": _digest(path)}


def module_file(name: str, search: list[str]) -> Path | None:
    """The source file of module ``name`` on ``search`` (then ``sys.path``), found the way
    the import system finds it but without executing any package's ``__init__``."""
    parts = name.split(".")
    locations: list[str] | None = [*search, *_import_path()]
    spec = None
    for depth in range(len(parts)):
        spec = PathFinder.find_spec(".".join(parts[: depth + 1]), locations)
        if spec is None:
            return _through_finders(name)
        locations = list(spec.submodule_search_locations or [])
    if spec is None or not spec.origin or not Path(spec.origin).is_file():
        return _through_finders(name)
    return Path(spec.origin)


def _import_path() -> list[str]:
    import sys

    return [entry for entry in sys.path if entry]


def _through_finders(name: str) -> Path | None:
    """Modules of this package installed in editable mode are mapped by a meta-path finder
    of setuptools: ask our own package for its file instead (our code, already imported)."""
    if not name.startswith("toolconform."):
        return None
    from importlib.util import find_spec

    spec = find_spec(name)
    return Path(spec.origin) if spec and spec.origin else None


def adapter_identity(spec: str, implementation: dict[str, Any]) -> dict[str, Any]:
    """How a report names the adapter: kind, command or module, and file digests."""
    check_spec(spec)
    identity: dict[str, Any] = {
        "spec": spec,
        "implementation": {key: implementation.get(key) for key in ("name", "version")},
    }
    if spec.startswith("cmd:"):
        argv = shlex.split(spec[len("cmd:") :])
        files = []
        executable = shutil.which(argv[0])
        if executable:
            files.append(_file(Path(executable).resolve()))
        for argument in argv[1:]:
            path = Path(argument)
            if not argument.startswith("-") and path.is_file():
                files.append(_file(path.resolve()))
        identity.update(kind="program", command=argv, files=files)
        return identity
    module = BUILTIN.get(spec, spec).partition(":")[0]
    path = module_file(module, [os.getcwd()])
    identity.update(
        kind="builtin" if spec in BUILTIN else "module",
        module=module,
        files=[_file(path)] if path else [],
    )
    return identity


def identity_problems(recorded: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Where the adapter at hand differs from the one a report recorded."""
    problems = []
    if recorded.get("spec") != current.get("spec"):
        problems.append(
            f"adapter {current.get('spec')!r}, the report is about {recorded.get('spec')!r}"
        )
    before = {entry["path"]: entry["sha256"] for entry in recorded.get("files", [])}
    after = {entry["path"]: entry["sha256"] for entry in current.get("files", [])}
    for path, digest in before.items():
        if path not in after:
            problems.append(f"{path}: not found here")
        elif after[path] != digest:
            problems.append(f"{path}: its digest differs from the report's (the file changed)")
    if recorded.get("implementation") != current.get("implementation"):
        problems.append(
            f"implementation {current.get('implementation')}, the report says "
            f"{recorded.get('implementation')}"
        )
    return problems
