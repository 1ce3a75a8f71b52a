#!/usr/bin/env bash
# Installs what the end-to-end tests drive, when it is missing: tmux (terminal client), Debian's headless
# Chromium and its driver, Python's selenium and the Noto CJK fonts (browser tests: their pictures, and the
# Simplified and Traditional glyph shapes they check), Node (the page's reducer and sentence tables, Tests/Web), zbarimg (reads
# the banner's QR code back) and iproute2's `ip` (the discovery test between two network namespaces, run as root). Idempotent and quiet: a machine that has
# everything installs nothing. Under CI=true anything that cannot be installed is an error, so the browser tests
# can never be skipped silently there; elsewhere it is a warning and those tests skip with a message.
set -uo pipefail

python=${SPY_TEST_PYTHON:-python3}
missing_apt=()
command -v tmux >/dev/null 2>&1 || missing_apt+=(tmux)
command -v chromium >/dev/null 2>&1 || missing_apt+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing_apt+=(chromium-driver)
command -v node >/dev/null 2>&1 || missing_apt+=(nodejs)
command -v "$python" >/dev/null 2>&1 || missing_apt+=(python3 python3-pip)
command -v zbarimg >/dev/null 2>&1 || missing_apt+=(zbar-tools)
command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || missing_apt+=(iproute2)
if command -v dpkg-query >/dev/null 2>&1; then
    dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q "install ok installed" \
        || missing_apt+=(fonts-noto-cjk)
fi

# apt and dpkg take a lock; another install on the same machine may hold it for a while.
apt_quiet() {
    local attempt
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
        if DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 -qq "$@" >/dev/null 2>&1; then
            return 0
        fi
        sleep 6
    done
    return 1
}

failed=()
if ((${#missing_apt[@]} > 0)); then
    if ! command -v apt-get >/dev/null 2>&1; then
        failed+=("${missing_apt[@]}")
    elif ! { apt_quiet update && apt_quiet install -y --no-install-recommends "${missing_apt[@]}"; }; then
        failed+=("${missing_apt[@]}")
    fi
fi

if ! "$python" -c 'import selenium' >/dev/null 2>&1; then
    # A pyenv or venv Python takes pip as is; Debian's own Python wants the override (or its package).
    "$python" -m pip install -q --disable-pip-version-check selenium >/dev/null 2>&1 \
        || "$python" -m pip install -q --disable-pip-version-check --break-system-packages selenium >/dev/null 2>&1 \
        || apt_quiet install -y --no-install-recommends python3-selenium \
        || true
    "$python" -c 'import selenium' >/dev/null 2>&1 || failed+=("python selenium")
fi

if ((${#failed[@]} > 0)); then
    echo "install-test-deps: could not install: ${failed[*]}" >&2
    if [[ "${CI:-}" == "true" ]]; then
        exit 1
    fi
    echo "install-test-deps: the tests that need them will be skipped" >&2
fi
exit 0
