#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: its shape test takes any string for an enum member ("external_check"), so an answer
# with a value the schema does not list is published.
# Certified by suites/certify-bash.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
POV_SHAPED=${POV_SHAPED/'(.external_check == "ran" or .external_check == "unavailable")'/'(.external_check | type == "string")'}
main "$@"
