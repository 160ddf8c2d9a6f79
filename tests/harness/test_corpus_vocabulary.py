"""The corpus speaks one feature vocabulary, documented in corpus/README.md.

``features`` is how a runner selects the same scenario in every dialect; a tag that is
spelt two ways, or used without being documented, silently splits a scenario in two.
"""

from __future__ import annotations

import re
from pathlib import Path

from toolconform.harness.cases import load_cases

README = Path(__file__).resolve().parents[2] / "corpus" / "README.md"


def documented_features() -> set[str]:
    """The backquoted names in the first column of the README's feature table."""
    text = README.read_text(encoding="utf-8")
    table = text.split("## Feature vocabulary", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    return {name for cell in rows for name in re.findall(r"`([a-z0-9-]+)`", cell)}


def test_every_feature_in_the_corpus_is_documented() -> None:
    used = {feature for case in load_cases() for feature in case.features}
    assert used - documented_features() == set()


def test_every_documented_feature_is_used() -> None:
    used = {feature for case in load_cases() for feature in case.features}
    assert documented_features() - used == set()
