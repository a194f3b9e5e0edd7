#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: keeps only the last 300 characters of a long message (the `${x: -300}` of ce-plugin before #1175), losing its head.
# Certified by suites/certify-miniatures.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
clip_evidence() { if [ ${#1} -gt 300 ]; then printf '%s' "${1: -300}"; else printf '%s' "$1"; fi; }
main "$@"
