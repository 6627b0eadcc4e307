#!/usr/bin/env bash
# The one test command (README, .ci/run): installs what the tests need, runs the quality gates,
# builds, then runs every unit, integration and end-to-end test against the real PostgreSQL, a real
# Kafka broker (started here from Maven Central jars, stopped afterwards) and real pseudo-terminals.
#
# Most of a run is waiting, so the steps overlap: the broker (a JVM that mostly waits), the build,
# the unit tests and the quality gates start together in the background, and the integration tests
# start as soon as the build is ready (the files that use the broker wait for it). A background
# step writes its output to test-artifacts/ci/<step>.log: the unit tests' report is shown after the
# integration tests', a gate's output only when it fails. A failed step fails the run; the others
# still run, so one run reports every failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n==> %s\n' "$*"; }

bash scripts/test-prerequisites.sh

export TEST_KAFKA_PORT="${TEST_KAFKA_PORT:-19392}"
# Integration test files side by side: each has its own database, topics and consumer groups.
# Three, on two cores: the files mostly wait (outages, windows, restarts; alone, two workers kept
# the CPU only 40% busy). Four saturated the cores; on a slower machine (2026-12-03) one run with
# four took 698 s against 725–844 s with three, but the load itself made the files that keep time
# fail: the studio roll's platform saw its events late and its bets met a closed window.
INTEGRATION_WORKERS="${TEST_INTEGRATION_WORKERS:-3}"
CI_LOGS=test-artifacts/ci
rm -rf "$CI_LOGS"
mkdir -p "$CI_LOGS"

declare -A PIDS=()
FAILED=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  # Jest's global teardown stops the brokers tests start for themselves; this stops the shared one
  # and catches an interrupted run.
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

# Runs "$@" in the background as step $1 (a process group of its own, so the cleanup can stop all
# of it), its output in test-artifacts/ci/<step>.log and its duration in <step>.seconds.
background() {
  local name=$1
  shift
  setsid bash -c '"$@"; rc=$?; echo "$SECONDS" >"$0"; exit $rc' "$CI_LOGS/$name.seconds" "$@" \
    >"$CI_LOGS/$name.log" 2>&1 &
  PIDS[$name]=$!
}

# Waits for background step $1; prints its duration, and its output if it failed (or always, with
# "show" as $2).
await() {
  local name=$1 show=${2:-} rc=0
  wait "${PIDS[$name]}" || rc=$?
  unset "PIDS[$name]"
  local seconds
  seconds=$(cat "$CI_LOGS/$name.seconds" 2>/dev/null || echo '?')
  if [ "$rc" -eq 0 ]; then
    [ "$show" = show ] && cat "$CI_LOGS/$name.log"
    printf '    %-13s ok (%ss)\n' "$name" "$seconds"
  else
    printf '    %-13s FAILED (%ss), output:\n' "$name" "$seconds"
    sed 's/^/      /' "$CI_LOGS/$name.log"
    FAILED+=("$name")
  fi
  return "$rc"
}

# The shared broker of the integration tests, with fresh storage (the global setup's own start is
# skipped: TEST_KAFKA_BROKERS names this one). It starts while the gates and unit tests take the
# CPU, and the integration files do not wait for it: its exit status goes to TEST_KAFKA_READY_FILE,
# which the files that use it wait for (test/support/integration-environment.js); the others run.
export TEST_KAFKA_READY_FILE="$PWD/$CI_LOGS/broker.status"
fresh_broker=(env KAFKA_PORT="$TEST_KAFKA_PORT" KAFKA_HOME_DIR="$PWD/.tmp/kafka-test-$TEST_KAFKA_PORT"
  KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-240}"
  bash -c 'bash scripts/kafka.sh stop && rm -rf "$KAFKA_HOME_DIR" && bash scripts/kafka.sh start
    rc=$?; echo "$rc" >"$TEST_KAFKA_READY_FILE"; exit "$rc"')

# The unit tests and the gates finish minutes before the integration tests, which are the run's
# length and hold timing-sensitive work (leases, windows, restarts): they yield the CPU (nice).
step "started in the background: unit tests, Kafka broker, build, typecheck, lint, format, dependency rules"
background unit nice -n 10 npx jest --selectProjects unit --ci
background broker "${fresh_broker[@]}"
background build npm run --silent build
background typecheck nice -n 10 npm run --silent typecheck
background lint nice -n 10 npm run --silent lint
background format nice -n 10 npm run --silent format:check
background dependencies nice -n 10 npm run --silent depcheck

step "build"
await build || true

if [[ " ${FAILED[*]} " == *" build "* ]]; then
  echo "    integration tests not run: the build failed" >&2
  FAILED+=(integration)
else
  step "integration and end-to-end tests (real PostgreSQL, real Kafka, real pseudo-terminals)"
  # The services these tests start log to test-artifacts/logs/<test file>.log, not to this output;
  # each file's start and end go to test-artifacts/ci/integration.json (how the workers were used).
  integration_started=$SECONDS
  if [ "$INTEGRATION_WORKERS" -gt 1 ]; then
    workers=(--maxWorkers="$INTEGRATION_WORKERS")
  else
    workers=(--runInBand)
  fi
  if TEST_KAFKA_BROKERS="127.0.0.1:$TEST_KAFKA_PORT" \
    npx jest --selectProjects integration --ci "${workers[@]}" \
      --json --outputFile="$CI_LOGS/integration.json"; then
    printf '    integration   ok (%ss)\n' "$((SECONDS - integration_started))"
  else
    printf '    integration   FAILED (%ss)\n' "$((SECONDS - integration_started))"
    FAILED+=(integration)
  fi
fi

step "broker"
await broker || true

step "unit tests"
await unit show || true

step "quality gates"
for name in typecheck lint format dependencies; do await "$name" || true; done

if [ ${#FAILED[@]} -gt 0 ]; then
  printf '\nnpm test failed (%ds): %s\n' "$SECONDS" "${FAILED[*]}" >&2
  exit 1
fi
printf '\nnpm test passed (%ds)\n' "$SECONDS"
