#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: takes the string "true" for final (`jq -r .final` prints true for both; a truthiness test
# in Python does the same): fail open. A new-user trial's worker had it.
# Certified by suites/certify-bash.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
is_final() { [ "$(jq -r '.final' "$1" 2>/dev/null)" = true ]; }
main "$@"
