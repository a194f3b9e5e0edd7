#!/usr/bin/env bash
# Miniature broken worker: examples/bash-worker/peer-worker.sh with one classic mistake.
# Mistake: it publishes the answer as the CLI gave it, so a member the model added that the schema
# forbids (additionalProperties: false) ends up in an artifact its own schema refuses.
# Certified by suites/certify-bash.test.ts, which proves it fails exactly the checks for it.
source "$(dirname "${BASH_SOURCE[0]}")/../bash-worker/peer-worker.sh"
publish() {
  mkdir -p "$OUT_DIR"
  local out="$OUT_DIR/pov-$TARGET.json"
  jq -c . "$RAW_OUT" >"$out.tmp.$$" && mv "$out.tmp.$$" "$out"
  log "wrote peer POV to $out (voice $(jq -r .voice "$out"))"
  exit 0
}
main "$@"
