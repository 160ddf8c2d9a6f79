"""The ``ds2api`` dialect: DSML and legacy XML tool calls with drift tolerance (seed 003).

    <|DSML|tool_calls>
      <|DSML|invoke name="read_file">
        <|DSML|parameter name="path"><![CDATA[README.MD]]></|DSML|parameter>
      </|DSML|invoke>
    </|DSML|tool_calls>

Modules, in the order the text flows: ``chars`` (character classes of a tag shell),
``shell`` (one drifted tag), ``sections`` (CDATA and comments), ``markdown`` (fences),
``values`` (parameter bodies to JSON), ``block`` (one complete block to calls), ``capture``
(a held block, resolved as the text decides), ``buffer`` and ``sieve`` (the stream),
``parser`` (the response parser the registry hands out).
"""

from ...registry import Dialect, register
from .parser import Ds2apiResponseParser, Ds2apiToolParser

register(
    Dialect(
        name="ds2api",
        description=(
            "ds2api: DSML <|DSML|tool_calls> and legacy <tool_calls> XML, drift-tolerant shells, "
            "fenced and inline code inert, unknown names kept"
        ),
        tool_parser=Ds2apiToolParser,
        response_parser=Ds2apiResponseParser,
        tokenizer_families=("deepseek-v4",),
    )
)
