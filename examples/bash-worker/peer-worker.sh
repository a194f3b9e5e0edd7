#!/usr/bin/env bash
# peer-worker.sh: ask one peer model CLI for its point of view (POV), the way teams write these
# workers in the wild. Modelled on compound-engineering-plugin's
# skills/ce-pov/scripts/cross-model-pov.sh (research/ce-plugin.md sections 1.1-1.9): jq first
# (`.structured_output`, camelCase `.structuredOutput`, the `.result` string, the last
# `"type":"result"` line), then a Python `raw_decode` recovery scan scored 2/1/0; a fail-closed
# `final` gate with one retry on the same route; `peer skip evidence` lines; a hard cap per attempt
# through `timeout`.
#
# Usage: peer-worker.sh <target> <schema-file> <prompt-file> <out-dir>
#   target: claude (stream-json, prompt on stdin) | grok (--prompt-file, buffered json)
# Publishes <out-dir>/pov-<target>.json (the peer's POV object, as the peer wrote it) only when the
# answer is schema-shaped and final. Non-blocking by design: every failure is logged to stderr and
# the script exits 0 without an output file.
# Environment: PEER_HARD_SECS (whole seconds, default 600), PEER_RETRY_MIN_SECS (default 60).
#
# Where it stands (routecert certify, asserted by suites/certify.test.ts):
#   - idle-window FAILS on claude-code/stream-json: there is no output-idle detection, only the
#     hard cap of `timeout`, so a peer that goes silent is reaped only at PEER_HARD_SECS (the gap
#     ce-plugin issue #1270 describes; #1287 later added an idle poll to the real script). It has
#     no idle knob to give, so routecert's idle window means nothing to it.
#   - every other check passes on claude-code/stream-json and grok/json (grok has no
#     startup-rejection case in the corpus, and idle detection does not apply to buffered json).
set -uo pipefail
trap '' HUP

LOG_PREFIX='[peer-worker]'
log() { printf '%s %s\n' "$LOG_PREFIX" "$*" >&2; }

if [ $# -ne 4 ]; then
  log "usage: peer-worker.sh <claude|grok> <schema-file> <prompt-file> <out-dir>"
  exit 2
fi
TARGET=$1
SCHEMA_FILE=$2
PROMPT_SRC=$3
OUT_DIR=$4
HARD_SECS=${PEER_HARD_SECS:-600}
RETRY_MIN_SECS=${PEER_RETRY_MIN_SECS:-60}

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/peer-worker.XXXXXX") || { log "cannot create a scratch dir; skipping provider $TARGET"; exit 0; }
trap 'rm -rf "$SCRATCH"' EXIT
PROMPT_FILE="$SCRATCH/prompt.txt"
PEERLOG="$SCRATCH/peer.log"
PEERERR="$SCRATCH/peer.err"
RAW_OUT="$SCRATCH/raw.json"
cp "$PROMPT_SRC" "$PROMPT_FILE"
SCHEMA_CONTENT=$(cat "$SCHEMA_FILE")

# A Python that really runs (a Windows Store stub or a broken shim does not count).
PYTHON=""
for candidate in python3 python py; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c '' >/dev/null 2>&1; then PYTHON=$candidate; break; fi
done

# The argv of each route, NUL-delimited, so the pretty-printed schema stays ONE argv token.
adapter_argv() {
  case "$1" in
    claude) printf '%s\0' claude -p --permission-mode dontAsk --no-session-persistence --max-turns 15 \
      --json-schema "$SCHEMA_CONTENT" --output-format stream-json --verbose ;;
    grok) printf '%s\0' grok --prompt-file "$PROMPT_FILE" --verbatim --permission-mode dontAsk \
      --deny Edit --deny Write --deny Bash --deny Task --no-subagents --max-turns 15 \
      --json-schema "$SCHEMA_CONTENT" --output-format json ;;
    *) return 1 ;;
  esac
}
CMD=()
while IFS= read -r -d '' token; do CMD+=("$token"); done < <(adapter_argv "$TARGET")
if [ ${#CMD[@]} -eq 0 ]; then
  log "unknown target $TARGET (known: claude, grok)"
  exit 2
fi

# One attempt under a hard cap: `timeout` signals its whole process group at the cap.
attempt_route() {
  local cap=$1
  : >"$PEERLOG"
  : >"$PEERERR"
  if [ "$TARGET" = grok ]; then
    timeout -k 2 "$cap" "${CMD[@]}" </dev/null >"$PEERLOG" 2>"$PEERERR"
  else
    timeout -k 2 "$cap" "${CMD[@]}" <"$PROMPT_FILE" >"$PEERLOG" 2>"$PEERERR"
  fi
}

POV_SHAPED='type == "object"
  and (.voice | type == "string" and length > 0)
  and (.position | type == "string" and length > 0)
  and (.reasoning | type == "string" and length > 0)
  and (.evidence | type == "array" and all(.[]; type == "string" and length > 0))
  and (.external_check == "ran" or .external_check == "unavailable")
  and (.mode == "independent" or .mode == "skeptic")
  and (.movement == "initial" or .movement == "moved" or .movement == "held")'

pov_score() { # 2 shaped and final, 1 shaped, 0 otherwise
  jq -r "if ($POV_SHAPED) then (if .final == true then 2 else 1 end) else 0 end" "$1" 2>/dev/null || echo 0
}

recover_pov_json() { # <log> <out>: every dict with a position, anywhere (strings re-scanned), best score, ties to the later
  [ -n "$PYTHON" ] || return 1
  "$PYTHON" - "$1" "$2" <<'PY'
import json, sys

def shaped(d):
    s = lambda k: isinstance(d.get(k), str) and d.get(k) != ""
    ev = d.get("evidence")
    return (s("voice") and s("position") and s("reasoning")
            and isinstance(ev, list) and all(isinstance(e, str) and e for e in ev)
            and d.get("external_check") in ("ran", "unavailable")
            and d.get("mode") in ("independent", "skeptic")
            and d.get("movement") in ("initial", "moved", "held"))

best, best_score = None, -1
decoder = json.JSONDecoder()

def consider(d):
    global best, best_score
    score = (2 if d.get("final") is True else 1) if shaped(d) else 0
    if score >= best_score:
        best, best_score = d, score

def inspect(value, depth=0):
    if isinstance(value, dict):
        if "position" in value:
            consider(value)
        for v in value.values():
            inspect(v, depth)
    elif isinstance(value, list):
        for v in value:
            inspect(v, depth)
    elif isinstance(value, str) and depth < 4:
        for i, ch in enumerate(value):
            if ch in "{[":
                try:
                    obj, _ = decoder.raw_decode(value, i)
                except ValueError:
                    continue
                inspect(obj, depth + 1)

with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    inspect(f.read())
if best is None:
    sys.exit(1)
with open(sys.argv[2], "w", encoding="utf-8") as f:
    json.dump(best, f)
PY
}

parse_structured() { # <log> <out>
  local log_file=$1 out=$2 picked="" line
  picked=$(jq -c '(.structured_output // .structuredOutput) // empty' "$log_file" 2>/dev/null | tail -n 1)
  if [ -z "$picked" ]; then
    picked=$(jq -r '.result // empty | strings' "$log_file" 2>/dev/null | jq -c . 2>/dev/null | tail -n 1)
  fi
  if [ -z "$picked" ]; then
    line=$(grep '"type":"result"' "$log_file" | tail -n 1)
    if [ -n "$line" ]; then
      picked=$(printf '%s' "$line" | jq -c '(.structured_output // .structuredOutput) // empty' 2>/dev/null)
      [ -n "$picked" ] || picked=$(printf '%s' "$line" | jq -r '.result // empty | strings' 2>/dev/null | jq -c . 2>/dev/null)
    fi
  fi
  local picked_score=-1
  if [ -n "$picked" ]; then
    printf '%s\n' "$picked" >"$out"
    picked_score=$(pov_score "$out")
    [ "$picked_score" = 2 ] && return 0
  fi
  if recover_pov_json "$log_file" "$out.scan"; then
    if [ "$(pov_score "$out.scan")" -ge "$picked_score" ]; then mv "$out.scan" "$out"; picked=scan; fi
  fi
  [ -n "$picked" ]
}

bounded_failure_evidence() { # <file>: human fields first, else the raw file; newlines flattened; head 147 ... tail 147
  local file=$1 human anc ev
  [ -s "$file" ] || return 0
  human=$(jq -rs '[.[] | objects | (.result, .message, (.error | if type == "object" then .message else empty end)) | strings | select(length > 0)] | unique | join(" | ")' "$file" 2>/dev/null)
  anc=$(jq -rs '[.[] | objects | (if .api_error_status != null then "api_error_status=\(.api_error_status)" else empty end), (if .terminal_reason then "terminal_reason=\(.terminal_reason)" else empty end)] | unique | join(" ")' "$file" 2>/dev/null)
  if [ -n "$human" ]; then ev=$human; else ev=$(cat "$file"); fi
  [ -n "$anc" ] && ev="$ev $anc"
  ev=$(printf '%s' "$ev" | tr '\r\n' '  ')
  if [ ${#ev} -gt 300 ]; then ev="${ev:0:147} ... ${ev: -147}"; fi
  printf '%s' "$ev"
}

skip() { # <reason> [non-final position]
  log "provider $TARGET produced no usable schema-shaped output ($1); skipping fold-in"
  [ -n "${2:-}" ] && log "  peer skip evidence: non-final position: ${2:0:200}"
  local ev
  ev=$(bounded_failure_evidence "$PEERLOG")
  [ -n "$ev" ] && log "  peer skip evidence: $ev"
  ev=$(bounded_failure_evidence "$PEERERR")
  [ -n "$ev" ] && log "  peer skip evidence (stderr): $ev"
  exit 0
}

publish() {
  mkdir -p "$OUT_DIR"
  local out="$OUT_DIR/pov-$TARGET.json"
  jq -c . "$RAW_OUT" >"$out.tmp.$$" && mv "$out.tmp.$$" "$out"
  log "wrote peer POV to $out (voice $(jq -r .voice "$out"))"
  exit 0
}

STARTED=$(date +%s)
log "asking $TARGET (hard cap ${HARD_SECS}s)"
attempt_route "$HARD_SECS" || skip "peer exited non-zero or timed out"
parse_structured "$PEERLOG" "$RAW_OUT" || skip "no POV candidate"
SCORE=$(pov_score "$RAW_OUT")
[ "$SCORE" = 2 ] && publish
[ "$SCORE" = 1 ] || skip "not schema-shaped"

POSITION=$(jq -r .position "$RAW_OUT")
REMAINING=$((HARD_SECS - ($(date +%s) - STARTED)))
if [ "$REMAINING" -lt "$RETRY_MIN_SECS" ]; then
  log "peer returned a non-final position (\"${POSITION:0:120}\") with ${REMAINING}s of the ${HARD_SECS}s window left; not retrying"
  skip "non-final" "$POSITION"
fi
log "peer returned a non-final position (\"${POSITION:0:120}\"); retrying once on the same route with a final-answer requirement (${REMAINING}s left)"
cat >>"$PROMPT_FILE" <<'EOF'

Your previous response set "final" to false, so it was only a placeholder. This response is the final one: inspect what you still need now, then return your settled position with its evidence and "final": true. A settled "Blocked" position counts as final.
EOF
attempt_route "$REMAINING" || skip "peer exited non-zero or timed out on the retry"
parse_structured "$PEERLOG" "$RAW_OUT" || skip "no POV candidate on the retry"
SCORE=$(pov_score "$RAW_OUT")
[ "$SCORE" = 2 ] && publish
[ "$SCORE" = 1 ] && skip "non-final twice" "$(jq -r .position "$RAW_OUT")"
skip "not schema-shaped on the retry"
