#!/usr/bin/env bash
# Makes sure what the test suite talks to is there: Debian's Chromium for the browser tests,
# PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379. Installs or starts what is missing
# (needs root for that); never skips.
set -euo pipefail

log() { printf '[prepare-test-env] %s\n' "$*" >&2; }

if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  log "installing Debian's chromium for the browser tests"
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! port_open 5432; then
  log "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
  for _ in $(seq 1 30); do port_open 5432 && break; sleep 1; done
fi

if ! port_open 6379; then
  log "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 1 30); do port_open 6379 && break; sleep 1; done
fi

port_open 5432 || { log "PostgreSQL is not reachable on 127.0.0.1:5432"; exit 1; }
port_open 6379 || { log "Redis is not reachable on 127.0.0.1:6379"; exit 1; }
