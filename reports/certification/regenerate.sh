#!/bin/sh
# Regenerates the published certification reports: for each engine, its tox
# environment installs it, runs its adapter tests, and certifies each of its adapters in the
# quick and full modes into reports/certification/ADAPTER-VERSION/ (certify_engine.py
# --publish); the last one rewrites reports/README.md from every report.json. Then the static
# site (reports/site/index.html) is rebuilt over every certification and throughput report.
# Extra arguments go to certify_engine.py: --no-full, --jobs N, --shards N (the full mode as N
# shards merged into one report, as the sharded CI workflow runs it), --update-expectations.
set -eu
cd "$(dirname "$0")/../.."
tox -e lmdeploy,harmony,sglang,vllm -- --publish "$@"
toolconform site reports/certification reports/bench --out reports/site
