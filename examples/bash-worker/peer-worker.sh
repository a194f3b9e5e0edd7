#!/usr/bin/env bash
# peer-worker.sh: ask one peer model CLI for its point of view (POV), the way teams write these
# workers in the wild. Modelled on compound-engineering-plugin's
# skills/ce-pov/scripts/cross-model-pov.sh (research/ce-plugin.md sections 1.1-1.9): jq first
# (`.structured_output`, camelCase `.structuredOutput`, the `.result` string, the last
# `"type":"result"` line), then a Python `raw_decode` recovery scan scored 2/1/0 with ties to the
# later candidate; a fail-closed `final` gate with one retry on the same route and argv; `peer skip
# evidence` lines clipped head 147 ... tail 147; the peer in its own process group, watched for a
# hard cap and (on streaming routes) an output-idle window, reaped with SIGTERM then SIGKILL to the
# whole group, and the group swept with SIGKILL after it exits.
#
# Usage: peer-worker.sh <target> <schema-file> <prompt-file> <out-dir>
#   target: claude (stream-json, prompt on stdin) | claude-json (buffered json, prompt on stdin)
#           | grok (--prompt-file, buffered json)
# Publishes <out-dir>/pov-<target>.json (the peer's POV object, as the peer wrote it) only when the
# answer is schema-shaped and final. Non-blocking by design: every failure is logged to stderr and
# the script exits 0 without an output file.
# Environment: PEER_HARD_SECS (whole seconds, default 600), PEER_RETRY_MIN_SECS (default 60),
# PEER_IDLE_SECS (default 180; streaming routes only).
#
# Each rule lives in one small function below. examples/miniatures/*.sh source this file, redefine
# exactly one of them (one classic mistake each) and call `main`; routecert certify proves that
# each fails exactly the checks for what it lacks (suites/certify-miniatures.test.ts), while this
# worker passes every check (suites/certify.test.ts).

set -uo pipefail
trap '' HUP

LOG_PREFIX='[peer-worker]'
log() { printf '%s %s\n' "$LOG_PREFIX" "$*" >&2; }

# --- the rules, one function each (the miniatures redefine one) ----------------------------------

# The argv of each route, NUL-delimited, so the pretty-printed schema stays ONE argv token.
adapter_argv() { # <target> <attempt 1|2>
  local fmt
  fmt=$(output_format "$1")
  case "$1" in
    claude|claude-json) printf '%s\0' claude -p --permission-mode dontAsk --no-session-persistence --max-turns 15 \
      --json-schema "$(schema_arg)" --output-format "$fmt" ;;
    grok) printf '%s\0' grok --prompt-file "$PROMPT_FILE" --verbatim --permission-mode dontAsk \
      --deny Edit --deny Write --deny Bash --deny Task --no-subagents --max-turns 15 \
      --json-schema "$(schema_arg)" --output-format "$fmt" ;;
    *) return 1 ;;
  esac
  [ "$fmt" = stream-json ] && printf '%s\0' --verbose   # Claude Code needs --verbose for stream-json under -p
  extra_flags "$2"
}
output_format() { case "$1" in claude) echo stream-json ;; *) echo json ;; esac; }
schema_arg() { printf '%s' "$SCHEMA_CONTENT"; }           # the schema's JSON text, never its path
extra_flags() { :; }                                       # <attempt>: nothing that lifts permissions; the retry changes no flag
idle_secs() { case "$TARGET" in claude) echo "$IDLE_SECS" ;; *) echo 0 ;; esac; }  # buffered routes print at the end: hard cap only
kill_group() { kill -"$1" -- -"$2" 2>/dev/null || true; } # <signal> <pgid>: the peer's whole process group
reap() { # <pid>: SIGTERM to the group, up to 2 s of grace, then SIGKILL (a tool child may ignore SIGTERM)
  local i
  kill_group TERM "$1"
  for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$1" 2>/dev/null || break; sleep 0.2; done
  kill_group KILL "$1"
}
stop_peer_on_term() { [ -z "$ACTIVE_PEER" ] || reap "$ACTIVE_PEER"; }  # stopped with SIGTERM: the peer's group goes too
keep_timed_out_output() { return 1; }                      # output of a reaped peer is discarded
run_says_failed() { # <log>: an envelope that says the run failed (is_error: true, codex turn.failed) is never published
  grep -q '"is_error":true\|"type":"turn.failed"' "$1" 2>/dev/null && jq -se 'any(.[]; type == "object" and (.is_error == true or .type == "turn.failed"))' "$1" >/dev/null 2>&1
}
trust_structured_field() { return 1; }                     # the structured field is one candidate, not an authority
TIE_TO=later                                               # equal scores: the later candidate wins
is_final() { jq -e '.final == true' "$1" >/dev/null 2>&1; }  # missing or non-boolean final is non-final
retry_allowed() { return 0; }                              # one retry after a non-final answer
retry_window_ok() { [ "$1" -ge "$RETRY_MIN_SECS" ]; }      # <remaining secs>
final_answer_paragraph() {
  printf '\n%s\n' 'Your previous response set "final" to false, so it was only a placeholder. This response is the final one: inspect what you still need now, then return your settled position with its evidence and "final": true. A settled "Blocked" position counts as final.'
}
log_nonfinal_skip() { log "  peer skip evidence: non-final position: ${1:0:200}"; }
clip_evidence() { # <text>: short stays whole; long keeps its head (the message) and its tail
  if [ ${#1} -gt 300 ]; then printf '%s' "${1:0:147} ... ${1: -147}"; else printf '%s' "$1"; fi
}

# --- machinery -----------------------------------------------------------------------------------

now_ms() { if [ -n "${EPOCHREALTIME:-}" ]; then local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); else echo $(($(date +%s) * 1000)); fi; }

# SIGTERM/SIGINT (a supervisor or CI stops the job): the peer runs in a process group of its own,
# which that signal does not reach, so stop it before exiting.
ACTIVE_PEER=""
on_term() {
  stop_peer_on_term
  exit 143
}

build_cmd() { # <attempt>
  CMD=()
  while IFS= read -r -d '' token; do CMD+=("$token"); done < <(adapter_argv "$TARGET" "$1")
}

# One attempt: the peer in its own process group (set -m), stdout/stderr to private files, watched
# every 0.2 s for the hard cap and, on streaming routes, for stdout that stops growing.
# Sets RUN_STATUS: ok | failed | timed-out.
attempt_route() { # <cap secs> <attempt>
  local cap=$1 pid rc start now size last=-1 lastchg idle stdin_file=/dev/null
  : >"$PEERLOG"
  : >"$PEERERR"
  build_cmd "$2"
  [ "$TARGET" = grok ] || stdin_file=$PROMPT_FILE
  idle=$(idle_secs)
  RUN_STATUS=ok
  set -m
  "${CMD[@]}" <"$stdin_file" >"$PEERLOG" 2>"$PEERERR" &
  pid=$!
  ACTIVE_PEER=$pid
  set +m
  start=$(now_ms)
  lastchg=$start
  while kill -0 "$pid" 2>/dev/null; do
    now=$(now_ms)
    size=$(wc -c <"$PEERLOG")
    if [ "$size" != "$last" ]; then last=$size; lastchg=$now; fi
    if [ "$idle" -gt 0 ] && [ $((now - lastchg)) -ge $((idle * 1000)) ]; then
      log "peer output idle ${idle}s; reaping peer process group"; reap "$pid"; RUN_STATUS=timed-out; break
    fi
    if [ $((now - start)) -ge $((cap * 1000)) ]; then
      log "peer exceeded hard cap ${cap}s; reaping peer process group"; reap "$pid"; RUN_STATUS=timed-out; break
    fi
    sleep 0.2
  done
  wait "$pid" 2>/dev/null
  rc=$?
  kill_group KILL "$pid"   # sweep whatever the peer left in its group
  ACTIVE_PEER=""
  if [ "$RUN_STATUS" = ok ] && [ "$rc" -ne 0 ]; then RUN_STATUS=failed; fi
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
  if jq -e "$POV_SHAPED" "$1" >/dev/null 2>&1; then
    if is_final "$1"; then echo 2; else echo 1; fi
  else echo 0; fi
}

recover_pov_json() { # <log> <out>: every dict with a position, anywhere (strings re-scanned), best score, ties to $TIE_TO
  [ -n "$PYTHON" ] || return 1
  "$PYTHON" - "$1" "$2" "$TIE_TO" <<'PY'
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
later = sys.argv[3] == "later"
decoder = json.JSONDecoder()

def consider(d):
    global best, best_score
    score = (2 if d.get("final") is True else 1) if shaped(d) else 0
    if score > best_score or (later and score == best_score):
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
  if [ -n "$picked" ] && trust_structured_field; then printf '%s\n' "$picked" >"$out"; return 0; fi
  if [ -z "$picked" ]; then
    picked=$(jq -r '.result // empty | strings' "$log_file" 2>/dev/null | jq -c . 2>/dev/null | tail -n 1)
  fi
  if [ -z "$picked" ]; then
    line=$(grep '"type":"result"' "$log_file" | tail -n 1)
    if [ -n "$line" ]; then
      picked=$(printf '%s' "$line" | jq -c '(.structured_output // .structuredOutput) // empty' 2>/dev/null)
      [ -n "$picked" ] || picked=$(printf '%s' "$line" | jq -r '.result // empty | strings' 2>/dev/null | jq -c . 2>/dev/null | tail -n 1)
    fi
  fi
  local picked_score=-1
  if [ -n "$picked" ]; then
    printf '%s\n' "$picked" >"$out"
    picked_score=$(pov_score "$out")
    [ "$picked_score" = 2 ] && return 0
  fi
  # Claude Code can stream one assistant message over several events (one message.id, a text chunk
  # each; the result line may keep only the first chunk): join each message's text blocks and read
  # the joined text as JSON (the last message that parses wins).
  local joined
  joined=$(jq -cs '[.[] | objects | select(.type == "assistant") | .message | objects | select(.id != null)
      | {id, t: ([.content[]? | objects | select(.type == "text") | .text | strings] | join(""))}]
    | reduce .[] as $e ({order: [], text: {}}; (if .text[$e.id] == null then .order += [$e.id] else . end) | .text[$e.id] += $e.t)
    | . as $m | [$m.order[] | $m.text[.] | (try fromjson catch null) | objects] | last // empty' "$log_file" 2>/dev/null)
  if [ -n "$joined" ]; then
    printf '%s\n' "$joined" >"$out.split"
    if [ "$(pov_score "$out.split")" -gt "$picked_score" ]; then mv "$out.split" "$out"; picked=split; picked_score=$(pov_score "$out"); [ "$picked_score" = 2 ] && return 0; else rm -f "$out.split"; fi
  fi
  if recover_pov_json "$log_file" "$out.scan"; then
    if [ "$(pov_score "$out.scan")" -ge "$picked_score" ]; then mv "$out.scan" "$out"; picked=scan; fi
  fi
  [ -n "$picked" ]
}

bounded_failure_evidence() { # <file>: human fields first, else the raw file; newlines flattened; clipped
  local file=$1 human anc ev
  [ -s "$file" ] || return 0
  human=$(jq -rs '[.[] | objects | (.result, .message, (.error | if type == "object" then .message else empty end)) | strings | select(length > 0)] | unique | join(" | ")' "$file" 2>/dev/null)
  anc=$(jq -rs '[.[] | objects | (if .api_error_status != null then "api_error_status=\(.api_error_status)" else empty end), (if .terminal_reason then "terminal_reason=\(.terminal_reason)" else empty end)] | unique | join(" ")' "$file" 2>/dev/null)
  if [ -n "$human" ]; then ev=$human; else ev=$(cat "$file"); fi
  [ -n "$anc" ] && ev="$ev $anc"
  ev=$(printf '%s' "$ev" | tr '\r\n' '  ')
  clip_evidence "$ev"
}

skip() { # <reason> [non-final position]
  log "provider $TARGET produced no usable schema-shaped output ($1); skipping fold-in"
  [ -n "${2:-}" ] && log_nonfinal_skip "$2"
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
  # Only the members the schema lists when it forbids others (additionalProperties: false): a model
  # adds members unasked ("confidence"), and the artifact must pass the schema it was asked for.
  jq -c --slurpfile s "$SCHEMA_FILE" 'if $s[0].additionalProperties == false then with_entries(select(.key as $k | $s[0].properties // {} | has($k))) else . end' "$RAW_OUT" >"$out.tmp.$$" && mv "$out.tmp.$$" "$out"
  log "wrote peer POV to $out (voice $(jq -r .voice "$out"))"
  exit 0
}

# One attempt, judged: publish, skip, or return with SCORE 1 (a shaped non-final answer).
run_attempt() { # <cap secs> <attempt> <what>
  attempt_route "$1" "$2"
  if [ "$RUN_STATUS" != ok ] && ! { [ "$RUN_STATUS" = timed-out ] && keep_timed_out_output; }; then
    skip "peer exited non-zero or timed out$3"
  fi
  run_says_failed "$PEERLOG" && skip "peer reported a failed run$3"

  parse_structured "$PEERLOG" "$RAW_OUT" || skip "no POV candidate$3"
  SCORE=$(pov_score "$RAW_OUT")
  [ "$SCORE" = 2 ] && publish
  [ "$SCORE" = 1 ] || skip "not schema-shaped$3"
}

main() {
  if [ $# -ne 4 ]; then
    log "usage: peer-worker.sh <claude|claude-json|grok> <schema-file> <prompt-file> <out-dir>"
    exit 2
  fi
  TARGET=$1
  SCHEMA_FILE=$2
  PROMPT_SRC=$3
  OUT_DIR=$4
  HARD_SECS=${PEER_HARD_SECS:-600}
  RETRY_MIN_SECS=${PEER_RETRY_MIN_SECS:-60}
  IDLE_SECS=${PEER_IDLE_SECS:-180}
  case "$TARGET" in claude|claude-json|grok) ;; *) log "unknown target $TARGET (known: claude, claude-json, grok)"; exit 2 ;; esac

  SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/peer-worker.XXXXXX") || { log "cannot create a scratch dir; skipping provider $TARGET"; exit 0; }
  trap 'rm -rf "$SCRATCH"' EXIT
  trap on_term TERM INT
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

  local started remaining position
  started=$(date +%s)
  log "asking $TARGET (hard cap ${HARD_SECS}s, idle $(idle_secs)s)"
  run_attempt "$HARD_SECS" 1 ""

  position=$(jq -r .position "$RAW_OUT")
  remaining=$((HARD_SECS - ($(date +%s) - started)))
  if ! retry_allowed; then
    log "peer returned a non-final position (\"${position:0:120}\"); not retrying"
    skip "non-final" "$position"
  fi
  if ! retry_window_ok "$remaining"; then
    log "peer returned a non-final position (\"${position:0:120}\") with ${remaining}s of the ${HARD_SECS}s window left; not retrying"
    skip "non-final" "$position"
  fi
  log "peer returned a non-final position (\"${position:0:120}\"); retrying once on the same route with a final-answer requirement (${remaining}s left)"
  final_answer_paragraph >>"$PROMPT_FILE"
  run_attempt "$remaining" 2 " on the retry"
  skip "non-final twice" "$(jq -r .position "$RAW_OUT")"
}

# Run unless sourced (examples/miniatures/*.sh source this file, redefine one rule, then call main).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then main "$@"; fi
