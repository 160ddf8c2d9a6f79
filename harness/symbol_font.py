"""The symbol font bundled into every HTML page: the marks that stock fonts lack.

DeepSeek's markers (``<｜tool▁calls▁begin｜>``: U+FF5C and U+2581), the ``ⓘ`` of informative
results and the few marks the pages print render as empty boxes with a stock font set (DejaVu
has neither ``｜`` nor ``ⓘ``). Each page therefore embeds a subset of Noto Sans Mono CJK SC
(SIL Open Font License 1.1, ``harness/assets/OFL.txt``) holding exactly those characters,
under its own family name with a ``unicode-range``, so the reader's fonts draw everything
else. The subset is made once, from Debian's ``fonts-noto-cjk``, and committed:

    python -m toolconform.harness.symbol_font /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
"""

from __future__ import annotations

import base64
import sys
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path

#: The characters of the subset: DeepSeek's two marker characters, then the pages' own marks.
SYMBOLS = "｜▁ⓘ✓×⚠·→…—⏎␣"
FAMILY = "toolconform symbols"
#: The face of the source collection the subset is cut from.
SOURCE_FACE = "Noto Sans Mono CJK SC"
ASSET = "symbols.woff"


@cache
def font_face_css() -> str:
    """The ``@font-face`` rule with the subset inlined (a data URL: pages stay one file)."""
    data = resources.files("toolconform.harness").joinpath("assets", ASSET).read_bytes()
    ranges = ",".join(f"U+{ord(character):04X}" for character in SYMBOLS)
    return (
        f"@font-face{{font-family:'{FAMILY}';font-display:block;unicode-range:{ranges};"
        f"src:url(data:font/woff;base64,{base64.b64encode(data).decode()}) format('woff')}}"
    )


def build(source: Path, destination: Path) -> None:
    """Cut the subset out of ``source`` (a .ttc holding ``SOURCE_FACE``) into ``destination``.

    The family is renamed (the OFL keeps original names for the original fonts); the
    copyright and license entries stay in the font's own name table.
    """
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    fonts = TTCollection(str(source)).fonts
    font = next(f for f in fonts if f["name"].getDebugName(4) == SOURCE_FACE)
    options = subset.Options()
    options.flavor = "woff"
    options.name_IDs = [0, 1, 2, 4, 6, 13, 14]
    options.layout_features = []
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=SYMBOLS)
    subsetter.subset(font)
    names = font["name"]
    for name_id, value in ((1, FAMILY), (4, FAMILY), (6, FAMILY.title().replace(" ", ""))):
        names.setName(value, name_id, 3, 1, 0x409)
        names.setName(value, name_id, 1, 0, 0)
    font.flavor = "woff"
    font.save(str(destination))


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m toolconform.harness.symbol_font NotoSansCJK-Regular.ttc")
        return 2
    build(Path(args[0]), Path(__file__).parent / "assets" / ASSET)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
