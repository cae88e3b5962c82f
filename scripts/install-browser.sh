#!/usr/bin/env bash
# Installs the headless browser the review-page tests drive (tests/it/browser.rs): Debian's
# chromium and chromium-driver. Idempotent: does nothing when both are already on PATH.
# Needs root (CI and the development machines run as root) and Debian's package archive.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  echo "install-browser: $(chromium --version 2>/dev/null | head -n1); $(chromedriver --version | head -n1)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-browser: no apt-get here; install Chromium and chromedriver by hand, or set" \
       "PALISADE_CHROMIUM and PALISADE_CHROMEDRIVER" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium chromium-driver fonts-dejavu-core >/dev/null
echo "install-browser: $(chromium --version 2>/dev/null | head -n1); $(chromedriver --version | head -n1)"
