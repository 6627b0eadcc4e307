#!/usr/bin/env bash
# The one test command (README, .ci/run): installs what the tests need, runs the quality gates,
# builds, then runs every unit, integration and end-to-end test against the real PostgreSQL, a real
# Kafka broker (started here from Maven Central jars, stopped afterwards) and real pseudo-terminals.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n==> %s\n' "$*"; }

bash scripts/test-prerequisites.sh

export TEST_KAFKA_PORT="${TEST_KAFKA_PORT:-19392}"
cleanup() {
  # Jest's global teardown stops the shared broker; this catches an interrupted run, and brokers
  # that individual tests started for themselves.
  for pidfile in .tmp/kafka-*/broker.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null || true
    rm -f "$pidfile"
  done
}
trap cleanup EXIT

step "quality gates: typecheck, lint, format, dependency rules"
npm run --silent typecheck
npm run --silent lint
npm run --silent format:check
npm run --silent depcheck

step "build"
npm run --silent build

step "unit tests"
npx jest --selectProjects unit --ci

step "integration and end-to-end tests (real PostgreSQL, real Kafka, real pseudo-terminals)"
# The services these tests start log to test-artifacts/logs/<test file>.log, not to this output.
# --forceExit: a test that fails half-way may leave a client retrying; the run must still end with
# its verdict (the global teardown prints whatever was left open).
npx jest --selectProjects integration --ci --runInBand --forceExit
