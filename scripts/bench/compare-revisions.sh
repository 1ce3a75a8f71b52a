#!/bin/bash
# Ping throughput of another revision's spyd against this checkout's, side by side: the same closed-loop load as
# compare.sh (pingload.c, framed pings over CONNS connections), servers pinned to cpu 0 and the load to cpu 1 when
# taskset is there, the two hosts in alternating rounds (the order swapped every round) so that a machine that
# drifts weighs on both alike. Each round starts each host afresh. Prints each round and the median ratio.
# The revision's spyd is built in release in a temporary worktree and kept by commit, so a second run reuses it.
set -u
usage() {
  cat <<'EOF'
Usage: scripts/bench/compare-revisions.sh [options] REVISION

Builds REVISION's spyd in release (cached by commit under $SPY_REV_CACHE, by default /tmp/spyd-revisions),
builds this checkout's spyd in release, and measures both under the same ping load in alternating rounds.
Run from the project checkout. Prints pings/s per round and host, then the median of the rounds' ratios
(this checkout over REVISION): above 1 means this checkout is faster.

Options:
  --rounds N     rounds, each measuring both hosts (default 5)
  --conns N      load connections (default 20)
  --secs N       seconds of load per host per round (default 5)
  --no-build     use this checkout's .build/release/spyd as it is
  -h, --help     this text
EOF
}
rounds=5 conns=20 secs=5 build=1 rev=
while [ $# -gt 0 ]; do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --rounds | --conns | --secs)
      [[ ${2-} =~ ^[1-9][0-9]*$ ]] || { echo "compare-revisions.sh: $1 needs a positive number" >&2; usage >&2; exit 64; }
      declare "${1#--}=$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -*) echo "compare-revisions.sh: unknown option $1" >&2; usage >&2; exit 64 ;;
    *) [ -z "$rev" ] || { echo "compare-revisions.sh: one revision only" >&2; usage >&2; exit 64; }
       rev=$1; shift ;;
  esac
done
[ -n "$rev" ] || { echo "compare-revisions.sh: which revision?" >&2; usage >&2; exit 64; }
commit=$(git rev-parse --verify --quiet "$rev^{commit}") ||
  { echo "compare-revisions.sh: $rev is not a commit of this repository" >&2; exit 64; }

here=$(dirname "$(readlink -f "$0")")
export PATH=/opt/swift/usr/bin:$PATH
cache=${SPY_REV_CACHE:-/tmp/spyd-revisions}
old=$cache/$commit/spyd
if [ ! -x "$old" ]; then
  tree=$(mktemp -d /tmp/spyd-rev.XXXXXX)
  echo "building $rev ($commit) in $tree" >&2
  git worktree add --detach --quiet "$tree/src" "$commit" || exit 1
  (cd "$tree/src" && swift build -c release --product spyd >"$tree/build.log" 2>&1) ||
    { echo "compare-revisions.sh: building $rev failed; see $tree/build.log" >&2; exit 1; }
  mkdir -p "$cache/$commit" && cp "$tree/src/.build/release/spyd" "$old.tmp" && mv "$old.tmp" "$old"
  git worktree remove --force "$tree/src" && rm -rf "$tree"
fi
if [ $build = 1 ]; then
  swift build -c release --product spyd >/tmp/compare-revisions-build.log 2>&1 ||
    { echo "compare-revisions.sh: building this checkout failed; see /tmp/compare-revisions-build.log" >&2; exit 1; }
fi
new=.build/release/spyd
[ -x "$new" ] || { echo "compare-revisions.sh: $new is missing (run from the checkout, or drop --no-build)" >&2; exit 1; }
gcc -O2 -o /tmp/pingload "$here/pingload.c" || exit 1

if command -v taskset >/dev/null; then server=(taskset -c 0) load=(taskset -c 1); else server=() load=(); fi
port=7997
# One host's pings/s: starts it afresh (each load connection takes a seat, and seats outlive their connection).
measure() {
  local sp out
  "${server[@]}" "$1" --host --bind 127.0.0.1 --port $port --max-players 20 --no-state --log-level error \
    </dev/null >/dev/null 2>&1 &
  sp=$!
  for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
  out=$("${load[@]}" /tmp/pingload spy $port "$conns" "$secs")
  kill $sp; wait $sp 2>/dev/null
  sed -n 's/.*"rps":\([0-9]*\).*/\1/p' <<<"$out"
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

short=$(git rev-parse --short "$commit")
echo "this checkout ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes')) against $short:" \
  "$rounds rounds, $conns connections, $secs s each"
ratios=() news=() olds=()
for round in $(seq "$rounds"); do
  if ((round % 2)); then a=$(measure "$new"); b=$(measure "$old"); else b=$(measure "$old"); a=$(measure "$new"); fi
  [ -n "$a" ] && [ -n "$b" ] || { echo "compare-revisions.sh: a host gave no figure in round $round" >&2; exit 1; }
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a / b}')
  ratios+=("$ratio") news+=("$a") olds+=("$b")
  echo "round $round  this checkout $a pings/s  $short $b pings/s  ratio $ratio"
done
echo "median pings/s: this checkout $(printf '%s\n' "${news[@]}" | median), $short $(printf '%s\n' "${olds[@]}" | median)"
echo "median ratio: $(printf '%s\n' "${ratios[@]}" | median)"
