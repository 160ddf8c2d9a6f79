"""A few KB of varied text for the tokenizer faithfulness tests.

Code, JSON, CJK, emoji sequences, right-to-left scripts, combining marks, odd whitespace,
numbers and contractions: the places where pre-tokenizer regexes and byte-level merges
disagree when a tokenizer is not the real one. No entry contains an added token of any
family (the tag table checks those), so that files which share a BPE but not their added
tokens can be compared.
"""

from __future__ import annotations

CORPUS: tuple[str, ...] = (
    'def get_weather(city: str, days: int = 3) -> dict:\n    """Fetch."""\n'
    '    return {"city": city, "days": days}\n',
    "for (let i = 0; i < n; i++) {\n\tconsole.log(`${i}: ${arr[i]}`);\n}\n",
    "SELECT id, name FROM users WHERE email LIKE '%@example.com' ORDER BY 2 DESC;",
    '{"name": "get_weather", "arguments": {"city": "東京", "days": 3, "units": null}}',
    '[{"a": [1, 2.5e-3, -7, true, false]}, {"b": {"c": "\\"quoted\\" \\\\ \\u00e9"}}]',
    '<tool_call\n{"name": "f"}\n</tool_call \n<function=search>\n<parameter=q>\nx\n'
    "</parameter>\n</function>",
    "東京の天気は晴れです。明日は雨が降るでしょう。北京今天多云，气温二十度。",
    "한국어 문장은 띄어쓰기를 합니다. 漢字とカタカナとひらがな。",
    "🧑🏿‍💻 👨‍👩‍👧‍👦 🇯🇵🇫🇷 👍🏽 🏳️‍🌈 ❤️‍🔥 🙂🙃 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𐍈",
    "שלום עולם! مرحبا بالعالم. mixed עברית and English and العربية 123.",
    "e\u0301 a\u0308 n\u0303 o\u0302\u0323 Z\u0351\u0352\u0353 ñ é ü café naïve",
    "तुम्हारा नाम क्या है? ภาษาไทย ไม่มีช่องว่าง Ελληνικά Русский текст",
    "spaces:    four\ttab\t\ttwo tabs\r\nCRLF\u3000ideographic\u00a0nbsp\u2028ls\u200bzw",
    "   leading and trailing   \n\n\n\n   \t \n",
    "I'll, you're, they've, we'd, it's, DON'T, SHE'LL, O'Neil's 'quoted' \"dq\"",
    "1234567890 3.14159 -0.5e+10 1,000,000 0x1F 2026-11-30T05:31:00Z v1.2.3",
    "https://example.com/path?q=a+b&lang=ja#frag user@example.org C:\\Windows\\path",
    "Markdown **bold** _it_ `code` ```python\nprint('x')\n``` > quote\n- item\n1. first",
    "<|im_start look-alike <|python_tag |> [TOOL_CALLS [ARGS] ｜DSML <｜tool▁sep",
    "ALLCAPSWORDS camelCaseWords snake_case_words kebab-case-words PascalCase",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!!!!!!!!!!!!!!!!!!.........??",
    '\\n\\t\\\\ escaped backslashes \\\\\\" and </tag> <tag attr="v"/> &amp; &lt;',
)

#: The corpus as one text, and each entry: a few KB in all.
TEXTS: tuple[str, ...] = (*CORPUS, "\n".join(CORPUS) * 3)
