#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: parses and publishes what a peer printed before it was reaped at the hard cap.
# Certified by suites/certify-miniatures.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
keep_timed_out_output() { return 0; }
main "$@"
