#!/bin/sh
# kill -9 of spyd at 200 moments under load (8 clients streaming settings changes to rooms of their own), each
# followed by a restart that must bring back every acknowledged move and at most the one in flight per room.
# Usage: scripts/kill-nine.sh [ROUNDS] [SEED]   (after `swift build --build-tests`)
set -eu
cd "$(dirname "$0")/.."
SPYD_KILL_ROUNDS="${1:-200}" SPYD_KILL_SEED="${2:-1}" \
    swift test --skip-build --filter KillNineTests.everyAcknowledgedMoveSurvivesKillNineAtRandomMoments
