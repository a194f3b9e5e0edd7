#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: always asks Claude Code for stream-json, whatever the route.
# Certified by suites/certify-miniatures.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
output_format() { case "$1" in grok) echo json ;; *) echo stream-json ;; esac; }
main "$@"
