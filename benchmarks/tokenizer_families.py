"""Load and streaming-decode cost of every tokenizer family, one fresh process per load.

    python benchmarks/tokenizer_families.py [--cold]

Prints, per family, the load time in a fresh process (``--cold`` first empties the
conversion cache, so converted families pay for their conversion; the wheels stay) and the
time to stream-decode 100 KB of mixed text one delta per token, as a server does.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time

_CHILD = """
import json, sys, time
started = time.perf_counter()
from toolconform.strategies import tokenizers
tokenizer = tokenizers.load(sys.argv[1])
loaded = time.perf_counter() - started
unit = ("def f(x):\\n    return {'k': [1, 2.5, None]}  # 東京の天気 🧑🏿‍💻 שלום e\\u0301\\n"
        '<tool_call>\\n{"name": "get_weather", "arguments": {"city": "東京"}}\\n'
        "</tool_call>\\n")
text = (unit * (100_000 // len(unit.encode()) + 1)).encode()[:100_000].decode(errors="ignore")
ids = tokenizers.encode(tokenizer, text)
started = time.perf_counter()
deltas = tokenizers.stream_decode(tokenizer, ids, skip_special_tokens=False)
decoded = time.perf_counter() - started
assert "".join(deltas) == tokenizer.decode(ids, skip_special_tokens=False)
print(json.dumps({"load_s": loaded, "tokens": len(ids), "decode_s": decoded}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true", help="empty the conversion cache first")
    args = parser.parse_args()
    from toolconform.strategies import tokenizers

    if args.cold:
        shutil.rmtree(tokenizers.cache_dir() / "tokenizers", ignore_errors=True)
    print(f"{'family':16} {'load s':>7} {'tokens':>7} {'decode 100 KB ms':>17}")
    started = time.perf_counter()
    for name in tokenizers.family_names():
        output = subprocess.run(
            [sys.executable, "-c", _CHILD, name], capture_output=True, text=True, check=True
        ).stdout
        row = json.loads(output)
        print(f"{name:16} {row['load_s']:7.2f} {row['tokens']:7d} {row['decode_s'] * 1000:17.0f}")
    print(f"total {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
