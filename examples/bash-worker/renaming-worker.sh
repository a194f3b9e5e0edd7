#!/usr/bin/env bash
# The example bash worker (peer-worker.sh) as a team might ship it with its own output names: it
# publishes the answer's `position` as `stance` and its `movement` under `meta`, and leaves `mode`
# out. Nothing in it is wrong: routecert.renaming.config.ts declares that mapping (`worker.publish`)
# and certifies it; without the mapping the smoke names `position` as missing.
source "$(dirname "${BASH_SOURCE[0]}")/peer-worker.sh"
publish() {
  mkdir -p "$OUT_DIR"
  local out="$OUT_DIR/pov-$TARGET.json"
  # The schema's members only (as peer-worker.sh publishes), then renamed.
  jq -c --slurpfile s "$SCHEMA_FILE" 'with_entries(select(.key as $k | $s[0].properties // {} | has($k))) | . as $a | del(.position, .movement, .mode) + {stance: $a.position, meta: {movement: $a.movement}}' "$RAW_OUT" >"$out.tmp.$$" && mv "$out.tmp.$$" "$out"
  log "wrote peer POV to $out (voice $(jq -r .voice "$out"))"
  exit 0
}
main "$@"
