#!/usr/bin/env bash
# Installs every Debian package clawtools needs to build, test and benchmark.
# Idempotent and quick when everything is present: it only calls apt when a package is missing.
set -euo pipefail

PACKAGES=(
  cmake ninja-build pkg-config ccache g++ make git
  nlohmann-json3-dev libboost1.81-dev
  libcurl4-openssl-dev libssl-dev
  libre2-dev libhyperscan-dev
  libsqlite3-dev sqlite3 libpq-dev postgresql-15
  libcli11-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format ripgrep fd-find perl curl python3 procps
  bubblewrap libseccomp-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
