"""The shell every HTML page of toolconform shares: one file, no external asset.

A certification report, a throughput report and the site's index are read in a browser
offline, attached to a CI run or published as static files, so each page is a single file:
styles inline, the symbol font inline (``symbol_font``), scripts inline. Wide tables scroll
inside their own box (``scroll``), so the page itself never scrolls sideways.
"""

from __future__ import annotations

import html

from .symbol_font import FAMILY, font_face_css

#: The bundled symbol font comes last: it draws only what the reader's fonts lack.
SANS = f"system-ui,'DejaVu Sans','Noto Sans',sans-serif,'{FAMILY}'"
MONO = f"ui-monospace,'DejaVu Sans Mono','Noto Sans Mono',Menlo,Consolas,monospace,'{FAMILY}'"

_CSS = f"""
:root{{--sans:{SANS};--mono:{MONO}}}
*{{box-sizing:border-box}}
body{{font-family:var(--sans);margin:0 auto;padding:1.5rem;max-width:90rem;color:#1f2328;
line-height:1.45}}
code,pre,kbd,.mono{{font-family:var(--mono);font-size:.85rem}}
pre{{background:#f6f8fa;padding:.5rem;margin:.3rem 0;white-space:pre-wrap;
overflow-wrap:anywhere}}
h1{{font-size:1.6rem;margin:.2rem 0 .6rem}}h2{{font-size:1.25rem;margin-top:1.6rem}}
h3{{font-size:1.05rem}}
.scroll{{overflow-x:auto;max-width:100%;margin:.4rem 0}}
table{{border-collapse:collapse;font-size:.85rem}}
td,th{{border:1px solid #d0d7de;padding:.2rem .45rem;text-align:left;vertical-align:top}}
th{{background:#f6f8fa;position:sticky;top:0}}
td.num{{text-align:right;font-variant-numeric:tabular-nums}}
td.ok{{background:#dafbe1}}td.bad{{background:#ffebe9}}td.known{{background:#fff8c5}}
td.info{{background:#f6f8fa}}
.muted{{color:#59636e}}.pass{{color:#1a7f37}}.fail{{color:#cf222e}}
.headline{{display:flex;flex-wrap:wrap;gap:1rem;margin:.8rem 0}}
.figure{{border:1px solid #d0d7de;border-radius:6px;padding:.6rem 1rem;min-width:14rem}}
.figure .value{{font-size:1.8rem;font-weight:600}}
img{{max-width:100%;height:auto}}
a{{color:#0969da}}
"""


def page(title: str, body: str, *, style: str = "", script: str = "") -> str:
    """A whole HTML document: ``body`` is trusted markup; ``title`` is escaped here."""
    scripts = f"<script>{script}</script>" if script else ""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width,initial-scale=1'>"
        f"<title>{html.escape(title)}</title>"
        f"<style>{font_face_css()}{_CSS}{style}</style></head>"
        f"<body>{body}{scripts}</body></html>\n"
    )


def scroll(markup: str) -> str:
    """``markup`` (a table) in a box that scrolls sideways on its own."""
    return f"<div class='scroll'>{markup}</div>"
