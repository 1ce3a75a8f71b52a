#!/bin/bash
# Durable writes per second on this machine's disk: spyd with a state directory (every acknowledged move is in the
# journal, one fdatasync per loop wake) against redis-server with `appendonly yes` and `appendfsync always` (every
# acknowledged SET in the append-only file, one fdatasync per event loop iteration), with 10 and then 100 closed-loop
# connections. Both keep their files in the same directory (DIR, by default a fresh one under /var/tmp).
# Run from the project checkout after `swift build -c release`.
# Usage: scripts/bench/durable.sh [DIR]
set -u
dir=${1:-$(mktemp -d /var/tmp/spy-durable.XXXXXX)}
moves=${MOVES:-2000}
requests=${REQUESTS:-100000}
# A fresh machine has no package lists yet: update them before installing.
command -v redis-server >/dev/null ||
  { apt-get update -qq >/dev/null && apt-get install -y -qq redis-server >/dev/null; } ||
  { echo "durable.sh: cannot install redis-server" >&2; exit 1; }
# A fresh append-only file each run: redis would first load the last run's (and answer LOADING meanwhile).
rm -rf "$dir/redis" && mkdir -p "$dir/redis" && chmod 700 "$dir"
df -h "$dir" | tail -1
redis-server --port 6398 --bind 127.0.0.1 --save '' --appendonly yes --appendfsync always --dir "$dir/redis" \
  >/dev/null 2>&1 & redis=$!
# Wait for redis to be gone on the way out: a server still closing would hold the port and answer the next run's
# check, then drop its connections.
trap 'kill $redis 2>/dev/null; wait $redis 2>/dev/null' EXIT
# The server that answers must be the one started here, not another still holding the port.
serving() { redis-cli -p 6398 info server 2>/dev/null | tr -d '\r' | grep -qx "process_id:$redis"; }
for _ in $(seq 50); do serving && break; sleep 0.1; done
serving || { echo "durable.sh: redis-server did not start here (port 6398 taken?)" >&2; exit 1; }
for conns in 10 100; do
  echo "== $conns connections"
  timeout 300 redis-benchmark -p 6398 -t set -c "$conns" -n "$requests" -q | tr '\r' '\n' | grep -v '^$' | tail -1 | sed 's/^/  redis  /'
  rm -rf "$dir/spyd"
  .build/release/spy-bench --rooms "$conns" --durable-moves "$moves" --state-dir "$dir/spyd" | sed 's/^/  spyd   /'
  .build/release/spy-bench --rooms "$conns" --durable-moves "$moves" | sed 's/^/  spyd (no state) /'
done
