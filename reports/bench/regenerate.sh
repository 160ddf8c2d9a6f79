#!/bin/sh
# Regenerates the published throughput report (issue 10). The reference parser and the no-op
# floor run in the project's environment on every dialect; each engine's parser runs in its
# own tox environment (its pinned CPU-only closure) on the same workloads; the runs merge
# into reports/bench/. Then the reference alone in full mode (sizes up to 1 M characters) on
# the long-string workload of every dialect, into reports/bench/reference-full/.
# About an hour on a 2-core machine, half of it the full reference run. Last, the static site
# (reports/site/index.html) is rebuilt over every certification and throughput report.
set -eu
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
toolconform bench --report "$work/reference"
for engine in lmdeploy sglang vllm; do
  tox exec -e "$engine" -- python -m pip install --quiet --no-deps -r "requirements/engines/$engine.txt"
done
# The engines on two workloads; SGLang, whose parsers re-scan their buffer with every chunk,
# on five dialects with a 3-second budget per stream (past it, larger sizes are skipped).
shapes="--shape long-string --shape several-calls"
tox exec -e lmdeploy -- toolconform bench --adapter lmdeploy $shapes --report "$work/lmdeploy"
tox exec -e vllm -- toolconform bench --adapter vllm $shapes --report "$work/vllm"
tox exec -e sglang -- toolconform bench --adapter sglang --shape long-string --budget 3 \
  --dialect qwen25 --dialect qwen3_coder --dialect glm47 --dialect kimi_k2 --dialect deepseek_v32 \
  --report "$work/sglang"
toolconform bench --no-run --report reports/bench \
  --merge "$work/reference/bench.json" --merge "$work/lmdeploy/bench.json" \
  --merge "$work/sglang/bench.json" --merge "$work/vllm/bench.json"
toolconform bench --full --shape long-string --report reports/bench/reference-full
toolconform site reports/certification reports/bench --out reports/site
