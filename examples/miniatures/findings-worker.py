#!/usr/bin/env python3
"""A small findings worker (contract findings-code) and, by MISTAKE, its broken variants.

Usage: findings-worker.py <claude|codex|grok> <schema-file> <out-dir>   (the prompt on stdin)
Publishes <out-dir>/findings.json only for a review from a run that did not fail. Selection as
compound-engineering-plugin's review workers do it (research/ce-plugin.md 3.4): in a sequence of
messages the last shaped review wins (Codex: its -o last-message file); inside one answer text a
populated review beats an empty stub. MISTAKE (environment) breaks one rule:
  first-shaped   takes the first shaped review of the stream instead of the last
  stub-wins      takes the last review of an answer text even when it is an empty stub
Certified by suites/certify-bash.test.ts (the miniatures whose names start with findings-).
"""
import json
import os
import subprocess
import sys
import tempfile

MISTAKE = os.environ.get("MISTAKE", "")
target, schema_file, out_dir = sys.argv[1:4]
prompt = sys.stdin.read()
schema = open(schema_file, encoding="utf-8").read()
scratch = tempfile.mkdtemp()
last_message = os.path.join(scratch, "last.json")
argv = {
    "claude": ["claude", "-p", "--permission-mode", "dontAsk", "--json-schema", schema, "--output-format", "stream-json", "--verbose"],
    "codex": ["codex", "exec", "-", "-s", "read-only", "--json", "--output-schema", schema_file, "-o", last_message],
    "grok": ["grok", "--prompt-file", os.path.join(scratch, "prompt.txt"), "--json-schema", schema, "--output-format", "json"],
}[target]
if target == "grok":
    open(argv[2], "w", encoding="utf-8").write(prompt)
hard = int(os.environ.get("FINDINGS_HARD_SECS", "600"))
try:
    run = subprocess.run(argv, input=prompt if target != "grok" else "", capture_output=True, text=True, timeout=hard, start_new_session=True)
except subprocess.TimeoutExpired:
    print("peer exceeded its hard window; nothing published", file=sys.stderr)
    sys.exit(0)
if run.stderr.strip():
    print(f"peer skip evidence (stderr): {run.stderr.strip()[:300]}", file=sys.stderr)
docs = []
for line in run.stdout.splitlines():
    try:
        docs.append(json.loads(line))
    except ValueError:
        pass
if run.returncode != 0 or any(isinstance(d, dict) and (d.get("is_error") is True or d.get("type") == "turn.failed") for d in docs):
    print("peer run failed; nothing published", file=sys.stderr)
    sys.exit(0)

decoder = json.JSONDecoder()


def objects_in(text):
    """Every JSON object in `text`, in order."""
    out, i = [], 0
    while (j := text.find("{", i)) >= 0:
        try:
            obj, end = decoder.raw_decode(text, j)
        except ValueError:
            i = j + 1
            continue
        out.append(obj)
        i = end
    return out


def shaped(o):
    return isinstance(o, dict) and isinstance(o.get("findings"), list) and all(isinstance(f, dict) for f in o["findings"])


def from_text(text):
    """The review of one answer text: a populated one beats an empty stub (unless MISTAKE=stub-wins)."""
    found = [o for o in objects_in(text) if shaped(o)]
    if not found:
        return None
    if MISTAKE != "stub-wins":
        populated = [o for o in found if o["findings"]]
        if populated:
            return populated[-1]
    return found[-1]


reviews = []  # in stream order
for d in docs:
    if not isinstance(d, dict):
        continue
    for key in ("structured_output", "structuredOutput"):
        if shaped(d.get(key)):
            reviews.append(d[key])
    for key in ("result", "text"):
        if isinstance(d.get(key), str) and (r := from_text(d[key])) is not None:
            reviews.append(r)
    item = d.get("item") if d.get("type") == "item.completed" else None
    if isinstance(item, dict) and item.get("type") == "agent_message" and (r := from_text(item.get("text", ""))) is not None:
        reviews.append(r)
if target == "codex" and MISTAKE != "first-shaped" and os.path.exists(last_message):
    r = from_text(open(last_message, encoding="utf-8").read())
    if r is not None:
        reviews.append(r)
if target == "grok" and len(docs) == 1 and isinstance(docs[0].get("text"), str) and docs[0].get("structuredOutput") is not None and not docs[0]["structuredOutput"].get("findings"):
    # grok: an empty structuredOutput never hides a populated review in .text (ce-plugin #1325)
    reviews.sort(key=lambda r: bool(r["findings"]))
if not reviews:
    print("no usable schema-shaped review; nothing published", file=sys.stderr)
    sys.exit(0)
review = reviews[0] if MISTAKE == "first-shaped" else reviews[-1]
review = {"reviewer": "peer", "residual_risks": [], "testing_gaps": [], **review}
os.makedirs(out_dir, exist_ok=True)
with open(os.path.join(out_dir, "findings.json"), "w", encoding="utf-8") as f:
    json.dump(review, f)
print(f"wrote {len(review['findings'])} finding(s)", file=sys.stderr)
