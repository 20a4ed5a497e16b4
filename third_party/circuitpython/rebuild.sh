#!/usr/bin/env bash
# Rebuild firmware.uf2 and mpy-cross beside this script: CircuitPython 10.2.1 for the
# Raspberry Pi Pico (board raspberry_pi_pico, RP2040), as README.md describes.
#
#   third_party/circuitpython/rebuild.sh CIRCUITPYTHON_SOURCE_DIR [OUT_DIR]
#
# CIRCUITPYTHON_SOURCE_DIR: a checkout of adafruit/circuitpython at tag 10.2.1
# (commit bcfcb511352652d7cb62d3b415e4a624380f1830) with the submodules the tag
# pins (`make -C ports/raspberrypi fetch-port-submodules` fetches them).
# Needs arm-none-eabi-gcc 14 or newer on PATH (CircuitPython 10 refuses older:
# Debian 13's gcc-arm-none-eabi 14.2 works; Debian 12 has only 12.2), newlib,
# cmake, gettext and the Python packages of the source's requirements-dev.txt.
# Not run by `make test`: the build takes ~2 minutes on 2 cores and a toolchain
# the test machines do not have; the image is checked in.
set -euo pipefail
src=${1:?usage: rebuild.sh CIRCUITPYTHON_SOURCE_DIR [OUT_DIR]}
out=${2:-$(dirname "$0")}
ver=$(arm-none-eabi-gcc -dumpversion)
if [ "${ver%%.*}" -lt 14 ]; then
    echo "arm-none-eabi-gcc $ver is too old: CircuitPython 10 needs 14 or newer" >&2
    exit 2
fi
tag=$(git -C "$src" describe --tags --exact-match 2>/dev/null || true)
if [ "$tag" != "10.2.1" ]; then
    echo "$src is not at tag 10.2.1 (git describe: ${tag:-none})" >&2
    exit 2
fi
# the build date is part of the image ("on 2026-11-25"): fix it so the bytes
# do not depend on the day of the build
export SOURCE_DATE_EPOCH=1795564800
make -C "$src/ports/raspberrypi" BOARD=raspberry_pi_pico -j"$(nproc)"
cp "$src/ports/raspberrypi/build-raspberry_pi_pico/firmware.uf2" "$out/firmware.uf2"
# CircuitPython's own mpy-cross (CircuitPython refuses MicroPython's .mpy files)
make -C "$src/mpy-cross" -j"$(nproc)"
strip -o "$out/mpy-cross" "$src/mpy-cross/build/mpy-cross"
sha256sum "$out/firmware.uf2" "$out/mpy-cross"
