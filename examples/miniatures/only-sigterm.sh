#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: ends the peer's process group with SIGTERM only and never escalates to SIGKILL.
# Certified by suites/certify-miniatures.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
kill_group() { kill -TERM -- -"$2" 2>/dev/null || true; }
main "$@"
