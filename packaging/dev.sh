#!/usr/bin/env bash
# Strata's two set-up commands (see README.md):
#   packaging/dev.sh run   build, then start the app on a bundled sample model
#   packaging/dev.sh test  build with warnings as errors, then run every test
# and, for maintainers (packaging/README.md):
#   packaging/dev.sh package   build the Debian package into build/default
# Both install missing Debian packages first (apt-get; quiet when nothing is missing).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

packages=(
  cmake ninja-build g++ pkg-config dpkg-dev
  qt6-base-dev qt6-svg-dev libqcustomplot-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libgraphviz-dev nlohmann-json3-dev libcli11-dev libfmt-dev libeigen3-dev libxxhash-dev
  libgtest-dev libgmock-dev libbenchmark-dev libonnx-testdata libopenblas-dev libdnnl-dev libgoogle-perftools-dev
  xvfb xauth fonts-dejavu-core
)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "dev.sh: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# build PRESET [TARGET...]: every target of the preset, or only those named.
build() {
  local preset=$1
  shift
  local targets=()
  for target in "$@"; do targets+=(--target "$target"); done
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$(nproc)" "${targets[@]}"
}

case "${1:-}" in
  run)
    install_missing
    # Only what runs: the app and the layout helper it starts, not the tests.
    build default strata strata-layout
    shift
    model=${1:-samples/resnet_tiny.onnx}
    app=build/default/app/gui/strata
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
      # No screen: render the window once, offscreen, so the run still shows something.
      shot=build/strata-run.png
      QT_QPA_PLATFORM=offscreen "$app" --screenshot "$shot" "$model"
      echo "dev.sh: no display; the app rendered $model to $shot"
    else
      exec "$app" "$model"
    fi
    ;;
  test)
    install_missing
    build ci
    QT_QPA_PLATFORM=offscreen ctest --preset ci -j "$(nproc)"
    ;;
  package)
    install_missing
    build default
    (cd build/default && cpack -G DEB)
    ;;
  *)
    echo "usage: packaging/dev.sh run [MODEL] | test | package" >&2
    exit 2
    ;;
esac
