#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: trusts a shaped final answer from a run whose envelope says it failed (is_error: true).
# Certified by suites/certify-bash.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
run_says_failed() { return 1; }
main "$@"
