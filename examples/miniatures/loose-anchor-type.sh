#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: its shape test never looks at the type of "position" (an array there passes).
# Certified by suites/certify-bash.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
POV_SHAPED=${POV_SHAPED/'and (.position | type == "string" and length > 0)'/'and has("position")'}
main "$@"
