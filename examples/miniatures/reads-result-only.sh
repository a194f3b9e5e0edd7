#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: reads the answer from the `result` string only (fenced or in prose, as the example does),
# never from the structured field, so an envelope with `"result": ""` beside `structured_output`
# (AssemblyZero#781, tower-agent#81) gives nothing.
# Certified by suites/certify-bash.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
parse_structured() { # <log> <out>
  jq -r 'if type == "array" then .[] else . end | objects | select(.type == "result") | .result | strings' "$1" >"$2.result" 2>/dev/null
  recover_pov_json "$2.result" "$2"
}
main "$@"
