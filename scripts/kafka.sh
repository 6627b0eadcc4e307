#!/usr/bin/env bash
# A real single-node Apache Kafka broker (KRaft) for tests and local development, without Docker.
#
#   scripts/kafka.sh start|stop|status|restart|resolve
#
# The broker jars are resolved from Maven Central by Maven, once per version of
# scripts/kafka/pom.xml, into the user's cache (~/.cache/live-dealer-studio/kafka-<pom checksum>/
# libs), which every clone shares: Maven alone took 56-109 s of a clean clone's `npm test` on a
# busy machine (7 CPU-seconds).
# Environment (all optional):
#   KAFKA_PORT       client port on 127.0.0.1 (default 19092); the controller uses KAFKA_PORT+1
#   KAFKA_HOME_DIR   folder for config, data, log and pid (default .cache/kafka/broker-$KAFKA_PORT)
#   KAFKA_HEAP       JVM heap (default 384m)
#   KAFKA_START_TIMEOUT  seconds to wait for the broker to accept clients (default 90)
#   KAFKA_LIBS_DIR   where the resolved jars are (default: the user's cache above)
#
# KAFKA_SASL=1: the client listener takes SASL/SCRAM (SCRAM-SHA-256 and -512) only, and the KRaft
# StandardAuthorizer enforces ACLs (allow.everyone.if.no.acl.found=false: a principal may do only
# what an ACL or super.users gives it). Set when the broker's data is first formatted:
#   KAFKA_SCRAM_USERS    name:password,... SCRAM users created by `kafka-storage format --add-scram`
#                        (default studio:studio-secret); more later with kafka-configs --alter
#                        --add-config 'SCRAM-SHA-256=[password=...]' --entity-type users
#   KAFKA_SUPER_USERS    principals allowed everything, ';'-separated (default User:studio: the
#                        studio service makes every platform's topics and reads and writes them)
#   KAFKA_BROKER_PASSWORD  the broker's own SCRAM user `broker` (inter-broker listener)
# The controller listener stays PLAINTEXT on loopback (its principal, ANONYMOUS, is a super user so
# the broker may register): in production it must not be reachable by platforms.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="$ROOT/.cache/kafka"
POM="$ROOT/scripts/kafka/pom.xml"
LIBS="${KAFKA_LIBS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/live-dealer-studio/kafka-$(cksum <"$POM" | cut -d' ' -f1)/libs}"
PORT="${KAFKA_PORT:-19092}"
CONTROLLER_PORT=$((PORT + 1))
HOME_DIR="${KAFKA_HOME_DIR:-$CACHE/broker-$PORT}"
HEAP="${KAFKA_HEAP:-384m}"
START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
PID_FILE="$HOME_DIR/broker.pid"
SASL="${KAFKA_SASL:-0}"
SCRAM_USERS="${KAFKA_SCRAM_USERS:-studio:studio-secret}"
SUPER_USERS="${KAFKA_SUPER_USERS:-User:studio}"
BROKER_PASSWORD="${KAFKA_BROKER_PASSWORD:-broker-secret}"

log() { echo "[kafka:$PORT] $*" >&2; }

resolve() {
  if [ -f "$LIBS/.complete" ]; then return 0; fi
  command -v java >/dev/null || { log "java is required (Java 17): apt-get install openjdk-17-jre-headless"; exit 1; }
  command -v mvn >/dev/null || { log "Maven is required: apt-get install maven"; exit 1; }
  log "resolving Apache Kafka jars from Maven Central (once) into $LIBS"
  # Resolved beside it and renamed into place, so the folder exists only complete: two clones
  # resolving at once (two runs of `npm test`) never see a half-copied one; the later keeps the
  # earlier's.
  local partial
  mkdir -p "$(dirname "$LIBS")"
  partial=$(mktemp -d "$LIBS.partial.XXXXXX")
  mvn -q -B -f "$POM" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$partial" >&2 || { rm -rf "$partial"; exit 1; }
  touch "$partial/.complete"
  mv -T "$partial" "$LIBS" 2>/dev/null || rm -rf "$partial"
  [ -f "$LIBS/.complete" ] || { log "could not resolve the jars into $LIBS"; exit 1; }
}

is_running() {
  [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null
}

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && exec 3>&- 3<&-
}

# The listeners: PLAINTEXT, or SASL/SCRAM with the KRaft StandardAuthorizer (KAFKA_SASL=1).
listener_config() {
  if [ "$SASL" = 1 ]; then
    cat <<PROPS
listeners=SASL_PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=SASL_PLAINTEXT://127.0.0.1:$PORT
inter.broker.listener.name=SASL_PLAINTEXT
listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT
sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-256
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="broker" password="$BROKER_PASSWORD";
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=false
super.users=User:broker;User:ANONYMOUS;$SUPER_USERS
PROPS
  else
    cat <<PROPS
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
PROPS
  fi
}

# `--add-scram` arguments of kafka-storage format: the broker's user and KAFKA_SCRAM_USERS.
scram_arguments() {
  [ "$SASL" = 1 ] || return 0
  local entry
  printf '%s\0' --add-scram "SCRAM-SHA-256=[name=broker,password=$BROKER_PASSWORD]"
  IFS=',' read -ra entries <<<"$SCRAM_USERS"
  for entry in "${entries[@]}"; do
    [ -n "$entry" ] || continue
    printf '%s\0' --add-scram "SCRAM-SHA-256=[name=${entry%%:*},password=${entry#*:}]"
    printf '%s\0' --add-scram "SCRAM-SHA-512=[name=${entry%%:*},password=${entry#*:}]"
  done
}

write_config() {
  mkdir -p "$HOME_DIR/data"
  cat >"$HOME_DIR/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
controller.listener.names=CONTROLLER
$(listener_config)
log.dirs=$HOME_DIR/data
num.partitions=3
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
min.insync.replicas=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=$([ "$SASL" = 1 ] && echo false || echo true)
log.retention.hours=24
log.segment.bytes=16777216
PROPS
  cat >"$HOME_DIR/log4j.properties" <<PROPS
log4j.rootLogger=WARN, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=$HOME_DIR/broker.log
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=INFO
PROPS
}

start() {
  resolve
  if is_running; then log "already running (pid $(cat "$PID_FILE"))"; return 0; fi
  if port_open "$PORT"; then log "port $PORT is taken by another process"; exit 1; fi
  write_config
  local java_opts=(-Xms"$HEAP" -Xmx"$HEAP" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true
    -Dlog4j.configuration="file:$HOME_DIR/log4j.properties")
  if [ ! -f "$HOME_DIR/data/meta.properties" ]; then
    local cluster_id
    # What `kafka-storage random-uuid` prints (16 random bytes, base64url, not starting with "-"),
    # without starting a JVM for it: on a busy machine that alone took seconds.
    cluster_id=$(node -e '
      const { randomBytes } = require("node:crypto");
      let id;
      do id = randomBytes(16).toString("base64url"); while (id.startsWith("-"));
      console.log(id);')
    local scram=()
    while IFS= read -r -d '' arg; do scram+=("$arg"); done < <(scram_arguments)
    java -cp "$LIBS/*" "${java_opts[@]}" kafka.tools.StorageTool format -t "$cluster_id" \
      -c "$HOME_DIR/server.properties" "${scram[@]}" >>"$HOME_DIR/broker.log" 2>&1
  fi
  nohup java -cp "$LIBS/*" "${java_opts[@]}" kafka.Kafka "$HOME_DIR/server.properties" \
    >>"$HOME_DIR/broker.out" 2>&1 </dev/null &
  echo $! >"$PID_FILE"
  local deadline=$((SECONDS + START_TIMEOUT))
  local ready_sasl=""
  if [ "$SASL" = 1 ]; then ready_sasl="broker:$BROKER_PASSWORD"; fi
  # The metadata probe (a node process loading kafkajs) only once the port takes connections: while
  # the JVM starts, a probe every half second took CPU from it and from the tests beside it.
  until port_open "$PORT" &&
    KAFKA_READY_SASL="$ready_sasl" node "$ROOT/scripts/kafka-ready.js" "127.0.0.1:$PORT" >/dev/null 2>&1; do
    if ! is_running; then log "broker exited during start-up; last lines of $HOME_DIR/broker.out:"; tail -n 30 "$HOME_DIR/broker.out" >&2; exit 1; fi
    if [ $SECONDS -ge $deadline ]; then log "broker did not accept clients within ${START_TIMEOUT}s"; stop; exit 1; fi
    sleep 0.5
  done
  log "ready on 127.0.0.1:$PORT (pid $(cat "$PID_FILE"))$([ "$SASL" = 1 ] && echo ', SASL/SCRAM with ACLs')"
}

stop() {
  if ! is_running; then rm -f "$PID_FILE"; log "not running"; return 0; fi
  local pid; pid=$(cat "$PID_FILE")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then log "broker did not stop in 30s; killing"; kill -KILL "$pid" 2>/dev/null || true; fi
  rm -f "$PID_FILE"
  log "stopped"
}

case "${1:-}" in
  resolve) resolve ;;
  start) start ;;
  stop) stop ;;
  restart) stop; start ;;
  status) if is_running; then echo "running (pid $(cat "$PID_FILE")) on 127.0.0.1:$PORT"; else echo "stopped"; exit 3; fi ;;
  *) echo "usage: $0 start|stop|status|restart|resolve" >&2; exit 2 ;;
esac
