"""DeepSeek-V4.1: V4's DSML blocks with a space after the marker (``<｜DSML｜ calls>``).

``render("deepseek_v41", Response(calls=(Call("f", {"a": 1}),)))`` →
``'\\n\\n<｜DSML｜ calls>\\n<｜DSML｜ invoke name="f">\\n<｜DSML｜ parameter name="a"
string="false">1</｜DSML｜ parameter>\\n</｜DSML｜ invoke>\\n</｜DSML｜ calls>'``.

As DeepSeek's V4.1 encoder writes an assistant turn; reasoning follows the thinking flag.
"""

from __future__ import annotations

from . import register
from .dsml import DSML, DeepSeekV4Renderer


class DeepSeekV41Renderer(DeepSeekV4Renderer):
    dialect = "deepseek_v41"
    layout = "as `deepseek_v4`, with a space after the DSML marker (`<｜DSML｜ calls>`)"
    block_name = "calls"
    marker = f"{DSML} "


register(DeepSeekV41Renderer())
