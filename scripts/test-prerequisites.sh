#!/usr/bin/env bash
# Installs (or explains how to install) what the tests need beyond npm packages:
# socat for virtual serial lines, Java + Maven for the Kafka broker, Debian's chromium for the
# consoles' browser tests (driven by playwright-core; no browser is downloaded), Debian's prometheus
# (prometheus and promtool: the alert rules' e2e) and systemd (systemd-analyze verify of the unit),
# a running PostgreSQL.
set -euo pipefail

need_apt=()
command -v socat >/dev/null 2>&1 || need_apt+=(socat)
command -v java >/dev/null 2>&1 || need_apt+=(openjdk-17-jre-headless)
command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v promtool >/dev/null 2>&1 || need_apt+=(prometheus)
command -v systemd-analyze >/dev/null 2>&1 || need_apt+=(systemd)

if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing test prerequisites with apt-get: ${need_apt[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "Missing test prerequisites: ${need_apt[*]}. Install them with: sudo apt-get install ${need_apt[*]}" >&2
    exit 1
  fi
fi

# The machine's PostgreSQL normally runs already; start the Debian cluster if it does not answer.
if [ -z "${TEST_DATABASE_URL:-}" ] && ! (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "PostgreSQL is not answering on 127.0.0.1:5432; starting the local cluster"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
fi
