#!/usr/bin/env bash
# Runs the benchmarks (bench/*.bench.ts, compiled) and prints their figures.
#   npm run bench                 every benchmark
#   npm run bench -- decoder      only benchmarks whose file name contains "decoder"
#   npm run bench -- outbox-relay the relay against a bare kafkajs producer
#   npm run bench -- history      costs as history grows (BENCH_HISTORY_ROUNDS=0,5000 by default;
#                                 about 30 generated rounds/s here, 120 KB a round on disk)
# Benchmarks measure; they never fail a build on timing. Each prints its own figures.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
npm run --silent build
filter="${1:-}"
shopt -s nullglob

# A free port P with P+1 free as well (the broker's controller listens on P+1), chosen now.
free_port_pair() {
  node -e '
    const net = require("node:net");
    const free = (p) => new Promise((ok) => {
      const s = net.createServer().once("error", () => ok(false));
      s.listen(p, "127.0.0.1", () => s.close(() => ok(true)));
    });
    const any = () => new Promise((ok) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const p = s.address().port; s.close(() => ok(p));
      });
    });
    (async () => {
      for (;;) { const p = await any(); if (p < 65535 && (await free(p + 1))) { console.log(p); return; } }
    })();'
}

needs_kafka() { [[ "$1" == kafka-* || "$1" == outbox-relay ]]; }

found=0
for f in dist/bench/*.bench.js; do
  name=$(basename "$f" .bench.js)
  if [ -n "$filter" ] && [[ "$name" != *"$filter"* ]]; then continue; fi
  found=1
  printf '\n=== bench: %s\n' "$name"
  if needs_kafka "$name" && [ -z "${BENCH_KAFKA_BROKERS:-}" ]; then
    # A broker of its own on a port free right now, started here, stopped and removed afterwards.
    port="${BENCH_KAFKA_PORT:-$(free_port_pair)}"
    export KAFKA_PORT="$port" KAFKA_HOME_DIR="$PWD/.tmp/kafka-bench-$port"
    rm -rf "$KAFKA_HOME_DIR"
    trap 'bash scripts/kafka.sh stop; rm -rf "$KAFKA_HOME_DIR"' EXIT
    bash scripts/kafka.sh start
    BENCH_KAFKA_BROKERS="127.0.0.1:$port" node --expose-gc "$f"
    bash scripts/kafka.sh stop
    rm -rf "$KAFKA_HOME_DIR"
    trap - EXIT
  else
    node --expose-gc "$f"
  fi
done
[ $found = 1 ] || { echo "no benchmark matches \"$filter\"" >&2; exit 1; }
