#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: signals the CLI's pid, not its process group, so what the CLI started lives on.
# Certified by suites/certify-miniatures.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
kill_group() { kill -"$1" "$2" 2>/dev/null || true; }
main "$@"
