#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: gives the retry more turns (--max-turns 30 appended): a different argv.
# Certified by suites/certify-miniatures.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
extra_flags() { [ "$1" = 2 ] && printf '%s\0' --max-turns 30; return 0; }
main "$@"
