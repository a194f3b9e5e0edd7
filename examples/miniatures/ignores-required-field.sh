#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: its shape test skips a required member ("voice"), so an answer without it is published.
# Certified by suites/certify-bash.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
POV_SHAPED=${POV_SHAPED/'and (.voice | type == "string" and length > 0)'/}
main "$@"
