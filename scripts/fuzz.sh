#!/usr/bin/env bash
# Builds and runs one libFuzzer target, or all of them: scripts/fuzz.sh TARGET|all [SECONDS]
# With FUZZ_RUNS=N each target instead runs exactly N inputs from a fixed seed (FUZZ_SEED, default 1), so the run
# does not depend on the machine's speed: what CI uses.
# Targets: the folders of Sources/Fuzz (frames, room, room-state, bank, ...). A crash or a broken invariant
# stops the run with a non-zero status and leaves the input in Fuzz/findings/; replay it with
# `.build/release/fuzz-TARGET FILE`, fix the bug, and move the file to Fuzz/regressions/TARGET/ so the test suite
# replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

usage() {
    echo "usage: scripts/fuzz.sh TARGET|all [SECONDS]" >&2
    echo "targets: $(ls Sources/Fuzz | tr '\n' ' ')" >&2
    exit 64
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
target=$1
seconds=${2:-60}
[[ "$seconds" =~ ^[0-9]+$ ]] || usage
if [ "$target" = all ]; then
    targets=$(ls Sources/Fuzz)
else
    [ -d "Sources/Fuzz/$target" ] || usage
    targets=$target
fi

# SWIFT_BACKTRACE off: with it on, a crash hangs in the backtracer instead of reaching libFuzzer.
export SPY_FUZZ=1 SWIFT_BACKTRACE=enable=no
for name in $targets; do
    swift build -c release --sanitize=fuzzer --product "fuzz-$name" >/dev/null
done
status=0
mkdir -p Fuzz/findings
for name in $targets; do
    work=".build/fuzz-corpus/$name"
    mkdir -p "$work"
    if [ -n "${FUZZ_RUNS:-}" ]; then
        echo "== fuzz-$name for $FUZZ_RUNS runs from seed ${FUZZ_SEED:-1}"
        budget=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}")
        rm -rf "$work" && mkdir -p "$work"
    else
        echo "== fuzz-$name for ${seconds}s"
        budget=(-max_total_time="$seconds")
    fi
    log=$(mktemp)
    if ! ".build/release/fuzz-$name" "$work" "Fuzz/corpus/$name" -dict=Fuzz/protocol.dict \
        "${budget[@]}" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="Fuzz/findings/$name-" >"$log" 2>&1; then
        tail -n 60 "$log"
        echo "fuzz-$name found a problem; the input is in Fuzz/findings/" >&2
        status=1
    fi
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)|cov: " "$log" | tail -n 3
    rm -f "$log"
done
exit $status
