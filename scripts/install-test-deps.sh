#!/usr/bin/env bash
# Installs the system tools the test suite needs, when they are missing (Debian; apt-get needs root).
# Under CI=true a test whose tool is missing fails instead of skipping, so CI runs this first.
set -euo pipefail

missing=()
# zbar-tools: zbarimg, the real QR decoder that reads the banner's code back.
command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)
# iproute2: `ip netns`, for the discovery test between two network namespaces (run as root).
command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || missing+=(iproute2)

if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
fi
