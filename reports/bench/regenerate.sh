#!/bin/sh
# Regenerates the published throughput report (issue 10). The reference parser and the no-op
# floor run in the project's environment on every dialect; each engine's parser runs in its
# own tox environment (its pinned CPU-only closure) on the same workloads; the runs merge
# into reports/bench/. Then the reference alone in full mode (sizes up to 1 M characters) on
# the long-string workload of every dialect, into reports/bench/reference-full/.
# Quick mode takes about an hour on a 2-core machine, the full reference run about half one.
set -eu
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
toolconform bench --report "$work/reference"
for engine in lmdeploy sglang vllm; do
  tox exec -e "$engine" -- python -m pip install --quiet --no-deps -r "requirements/engines/$engine.txt"
  tox exec -e "$engine" -- toolconform bench --adapter "$engine" --report "$work/$engine"
done
toolconform bench --no-run --report reports/bench \
  --merge "$work/reference/bench.json" --merge "$work/lmdeploy/bench.json" \
  --merge "$work/sglang/bench.json" --merge "$work/vllm/bench.json"
toolconform bench --full --shape long-string --report reports/bench/reference-full
