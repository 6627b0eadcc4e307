#!/usr/bin/env bash
# Runs the benchmarks (bench/*.bench.ts, compiled) and prints their figures.
#   npm run bench              every benchmark
#   npm run bench -- decoder   only benchmarks whose file name contains "decoder"
# Benchmarks measure; they never fail a build on timing. Each prints its own figures.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
npm run --silent build
filter="${1:-}"
shopt -s nullglob
found=0
for f in dist/bench/*.bench.js; do
  name=$(basename "$f" .bench.js)
  if [ -n "$filter" ] && [[ "$name" != *"$filter"* ]]; then continue; fi
  found=1
  printf '\n=== bench: %s\n' "$name"
  node --expose-gc "$f"
done
[ $found = 1 ] || { echo "no benchmark matches \"$filter\"" >&2; exit 1; }
