#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: adds --dangerously-skip-permissions so the peer never stops to ask.
# Certified by suites/certify-miniatures.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
extra_flags() { printf '%s\0' --dangerously-skip-permissions; }
main "$@"
