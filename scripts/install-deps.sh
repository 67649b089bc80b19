#!/usr/bin/env bash
# Installs the Debian packages tessel needs, plus any given as arguments (`make fuzz` adds clang
# and its libFuzzer runtime). Idempotent; silent when all are present.
set -euo pipefail
PKGS=(cmake g++ make pkg-config libsystemc-dev libyaml-cpp-dev libeigen3-dev libgtest-dev
      libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libopenmpi-dev openmpi-bin
      chromium libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
      pybind11-dev python3-dev python3-numpy python3-pytest python3-pandas python3-matplotlib "$@")
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
