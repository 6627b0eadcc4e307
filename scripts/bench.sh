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
  if [[ "$name" == kafka-* ]] && [ -z "${BENCH_KAFKA_BROKERS:-}" ]; then
    # A broker of its own, started here and stopped afterwards (no Kafka server on the machine).
    export KAFKA_PORT="${BENCH_KAFKA_PORT:-19592}" KAFKA_HOME_DIR="$PWD/.tmp/kafka-bench"
    rm -rf "$KAFKA_HOME_DIR"
    bash scripts/kafka.sh start
    trap 'bash scripts/kafka.sh stop' EXIT
    BENCH_KAFKA_BROKERS="127.0.0.1:$KAFKA_PORT" node --expose-gc "$f"
    bash scripts/kafka.sh stop
    trap - EXIT
  else
    node --expose-gc "$f"
  fi
done
[ $found = 1 ] || { echo "no benchmark matches \"$filter\"" >&2; exit 1; }
