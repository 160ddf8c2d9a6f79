#!/bin/sh
# Regenerates the published throughput report (issue 10). The reference parser and the no-op
# floor run in the project's environment on the 18 dialects of the first report (the corpus
# has more; the report keeps to these so that its figures compare); each engine's parser runs in its
# own tox environment (its pinned CPU-only closure) on the same workloads; the runs merge
# into reports/bench/. Then the reference alone in full mode (sizes up to 1 M characters) on
# the long-string workload of every dialect, into reports/bench/reference-full/.
# About an hour and a half on a 2-core machine: vLLM's quick run 25 min, the full reference 27. Last, the static site
# (reports/site/index.html) is rebuilt over every certification and throughput report.
set -eu
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
dialects=""
for d in deepseek_r1 deepseek_v3 deepseek_v31 deepseek_v32 deepseek_v4 ds2api glm45 glm47 gpt_oss \
  internlm kimi_k2 llama3_json minimax_m2 mistral qwen25 qwen3 qwen35 qwen3_coder; do
  dialects="$dialects --dialect $d"
done
toolconform bench $dialects --report "$work/reference"
for engine in lmdeploy sglang vllm; do
  tox exec -e "$engine" -- python -m pip install --quiet --no-deps -r "requirements/engines/$engine.txt"
done
# The engines on two workloads; SGLang, whose parsers re-scan their buffer with every chunk,
# on five dialects with a 3-second budget per stream (past it, larger sizes are skipped).
shapes="--shape long-string --shape several-calls"
tox exec -e lmdeploy -- toolconform bench --adapter lmdeploy $dialects $shapes --report "$work/lmdeploy"
tox exec -e vllm -- toolconform bench --adapter vllm $dialects $shapes --report "$work/vllm"
tox exec -e sglang -- toolconform bench --adapter sglang --shape long-string --budget 3 \
  --dialect qwen25 --dialect qwen3_coder --dialect glm47 --dialect kimi_k2 --dialect deepseek_v32 \
  --report "$work/sglang"
toolconform bench --no-run --report reports/bench \
  --merge "$work/reference/bench.json" --merge "$work/lmdeploy/bench.json" \
  --merge "$work/sglang/bench.json" --merge "$work/vllm/bench.json"
toolconform bench --full --shape long-string $dialects --report reports/bench/reference-full
toolconform site reports/certification reports/bench --out reports/site
