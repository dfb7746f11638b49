#!/usr/bin/env bash
# Installs the load generator the benchmarks use (h2load, from Debian's nghttp2-client).
set -euo pipefail
if ! command -v h2load >/dev/null 2>&1; then
  echo "[prepare-bench-env] installing h2load (nghttp2-client)" >&2
  sudo_cmd=""
  [ "$(id -u)" = "0" ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq nghttp2-client >/dev/null
fi
