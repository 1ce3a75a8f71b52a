#!/bin/bash
# Host CPU with a state directory against the same host without one, for one table playing flat out: PAIRS
# alternating pairs of runs (by default 8) of `spy-bench --rooms 1 --players 10 --games 30` against a host started
# here, each host's CPU counted by `perf stat` from when it is listening to when the bench is done. Prints each run,
# then the median of each side and the ratio of the medians. The state directory is a fresh one under DIR (by
# default a new directory under /var/tmp), so its disk is the one measured. Last, synccost.c measures what one
# durable append costs on that disk alone, and the script splits the state run's CPU into what its syncs cost at
# that price and the rest: the part of the ratio that is the disk's, and the part that is the host's.
# Run from the project checkout after `swift build -c release`; needs `perf` (Debian's linux-perf) and a C compiler.
# Usage: scripts/bench/state-ratio.sh [PAIRS] [DIR]
set -u
pairs=${1:-8}
dir=${2:-$(mktemp -d /var/tmp/spy-ratio.XXXXXX)}
games=${GAMES:-30}
command -v perf >/dev/null || { echo "state-ratio.sh: perf is missing (apt-get install linux-perf)" >&2; exit 1; }
command -v cc >/dev/null || { echo "state-ratio.sh: a C compiler is missing (apt-get install gcc)" >&2; exit 1; }
[ -x .build/release/spyd ] && [ -x .build/release/spy-bench ] ||
  { echo "state-ratio.sh: run swift build -c release first" >&2; exit 1; }

# One run: prints the host's task-clock in ms, its context switches and its fdatasync calls.
run() {
  local mode=$1 run_dir state port_file host perf_pid
  run_dir=$(mktemp -d "$dir/run.XXXXXX")
  port_file=$run_dir/port
  if [ "$mode" = state ]; then state=(--state-dir "$run_dir/state"); else state=(--no-state); fi
  .build/release/spyd --host --bind 127.0.0.1 --port 0 --port-file "$port_file" --seed 1 --max-connections 200 \
    --max-per-address 0 --max-rooms 200 --max-rooms-per-address 0 --rooms-per-minute 0 "${state[@]}" \
    >/dev/null 2>"$run_dir/log" &
  host=$!
  for _ in $(seq 100); do [ -s "$port_file" ] && break; sleep 0.05; done
  [ -s "$port_file" ] || { echo "state-ratio.sh: the host did not start: $(cat "$run_dir/log")" >&2; exit 1; }
  perf stat -e task-clock,context-switches,syscalls:sys_enter_fdatasync -p $host -o "$run_dir/perf" 2>/dev/null &
  perf_pid=$!
  # perf attaches in the background; give it a moment before the bench starts.
  sleep 0.3
  .build/release/spy-bench --host 127.0.0.1 --port "$(cat "$port_file")" --rooms 1 --players 10 --games "$games" \
    >"$run_dir/bench" || { echo "state-ratio.sh: spy-bench failed" >&2; exit 1; }
  kill -INT $perf_pid
  wait $perf_pid
  kill $host
  wait $host 2>/dev/null
  awk '/task-clock/ {gsub(",", "", $1); ms = $1} /context-switches/ {gsub(",", "", $1); cs = $1}
    /fdatasync/ {gsub(",", "", $1); fs = $1} END {printf "%.1f %s %s\n", ms, cs, fs}' "$run_dir/perf"
  rm -rf "$run_dir"
}

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

without=()
with=()
syncs=()
for i in $(seq "$pairs"); do
  read -r ms cs fs <<<"$(run nostate)"
  without+=("$ms")
  echo "pair $i  no state: ${ms} ms, $cs context switches"
  read -r ms cs fs <<<"$(run state)"
  with+=("$ms")
  syncs+=("$fs")
  echo "pair $i  state:    ${ms} ms, $cs context switches, $fs fdatasync calls"
done
a=$(printf '%s\n' "${without[@]}" | median)
b=$(printf '%s\n' "${with[@]}" | median)
echo "median host CPU: ${a} ms without state, ${b} ms with it: $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", b / a}')x"

# The disk's price of one durable append (write over zeros, fdatasync), alone, in the state runs' directory.
cc -O2 -o "$dir/synccost" "$(dirname "$0")/synccost.c" || { echo "state-ratio.sh: cannot build synccost" >&2; exit 1; }
"$dir/synccost" "$dir/synccost.dat" 2000 >"$dir/synccost.out" || { echo "state-ratio.sh: synccost failed" >&2; exit 1; }
sed 's/^/synccost: /' "$dir/synccost.out"
per_sync=$(sed -n 's/.* us wall, \([0-9.]*\) us CPU.*/\1/p' "$dir/synccost.out")
n=$(printf '%s\n' "${syncs[@]}" | median)
awk -v a="$a" -v b="$b" -v n="$n" -v c="$per_sync" 'BEGIN {
  s = n * c / 1000
  printf "the syncs at that price: %d x %.1f us = %.1f ms, %.2fx of the no-state median; ", n, c, s, s / a
  printf "the rest of the state run: %.2fx\n", (b - s) / a
}'
rm -f "$dir/synccost" "$dir/synccost.dat" "$dir/synccost.out"
