#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: never retries a non-final answer; drops it at once.
# Certified by suites/certify-miniatures.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
retry_allowed() { return 1; }
main "$@"
