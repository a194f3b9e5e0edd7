#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: reads a missing `final` as final (`.final != false`): fail open.
# Certified by suites/certify-miniatures.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
is_final() { jq -e '.final != false' "$1" >/dev/null 2>&1; }
main "$@"
