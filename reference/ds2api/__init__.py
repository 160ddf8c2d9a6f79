"""ds2api's tool-call semantics (seed 003): DSML and legacy XML tool calls with drift tolerance.

    <|DSML|tool_calls>
      <|DSML|invoke name="read_file">
        <|DSML|parameter name="path"><![CDATA[README.MD]]></|DSML|parameter>
      </|DSML|invoke>
    </|DSML|tool_calls>

Modules, in the order the text flows: ``chars`` (character classes of a tag shell),
``shell`` (one drifted tag), ``sections`` (CDATA and comments), ``markdown`` (fences),
``values`` (parameter bodies to JSON), ``block`` (one complete block to calls), ``capture``
(a held block, resolved as the text decides), ``buffer`` and ``sieve`` (the stream),
``parser`` (the response parser the registry hands out). A sibling of ``harmony``: an
engine of its own, registered as the ``ds2api`` dialect by ``dialects/ds2api.py``.
"""
