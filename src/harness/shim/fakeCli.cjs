#!/usr/bin/env node
/*
 * routecert fake CLI. One copy of this file is installed under each model CLI's name (`claude`,
 * `grok`, `codex`, ...) in a temporary bin folder that stands alone on a worker's PATH. It is plain
 * CommonJS for Node >= 20 with no dependency, so it starts fast and runs wherever `node` does.
 *
 * Layout it relies on (made by src/harness/shim/install.ts):
 *   <root>/bin/<cli>            this file
 *   <root>/shim/plan.json       what to replay, per CLI, attempt by attempt (schemas/shim.schema.json#/$defs/plan)
 *   <root>/shim/counter-<cli>   one byte per call: the attempt counter
 *   <root>/shim/calls.jsonl     one JSON line per event (schemas/shim.schema.json#/$defs/record)
 *
 * Per call it records argv, cwd, stdin, the `--prompt-file` content, the content of every file an
 * `argFiles` flag names (the schema file of `--output-schema`) and the environment (secrets
 * redacted), then replays attempt N of its CLI's plan: stdout/stderr (whole, or in chunks with
 * delays), an optional delay, writes the attempt's side files where the CLI's `sideFiles` flags
 * point (codex `-o <file>`: the last-message file), then exits with the exit code or signal; or it
 * hangs (optionally with grandchildren in its process group that ignore SIGTERM) until killed,
 * bounded by the plan's `maxHangMs`.
 *
 * After the fake CLIs of the compound-engineering-plugin tests (research/ce-plugin.md section 3.1)
 * and bowtie's envsonschema fauxmplementation (STYLE.md section 4).
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const RECORD_VERSION = 1;
const SECRET_KEY = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|COOKIE|AUTH)/i;
const SECRET_VALUES = [
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  /\bxai-[A-Za-z0-9]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
];
const REDACTED = '<redacted:secret>';

const cli = path.basename(__filename);
const stateDir = path.join(path.dirname(__dirname), 'shim');

function readPlan() {
  try {
    return JSON.parse(fs.readFileSync(path.join(stateDir, 'plan.json'), 'utf8'));
  } catch (error) {
    return { version: RECORD_VERSION, clis: {}, secrets: [], error: String(error && error.message) };
  }
}

function redactText(text, secrets) {
  let out = String(text);
  for (const secret of secrets) if (typeof secret === 'string' && secret.length >= 4) out = out.split(secret).join(REDACTED);
  for (const re of SECRET_VALUES) out = out.replace(re, REDACTED);
  out = out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, `$1${REDACTED}`);
  return out;
}

function redactEnv(env, secrets) {
  const out = {};
  for (const key of Object.keys(env).sort()) {
    const value = env[key];
    if (value === undefined) continue;
    out[key] = SECRET_KEY.test(key) && value !== '' ? REDACTED : redactText(value, secrets);
  }
  return out;
}

/** Process group and start time (clock ticks since boot) from /proc on Linux; nulls elsewhere. */
function procInfo(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pgid: Number(rest[2]), startTicks: Number(rest[19]) };
  } catch {
    return { pgid: null, startTicks: null };
  }
}

function record(entry) {
  fs.appendFileSync(path.join(stateDir, 'calls.jsonl'), `${JSON.stringify({ v: RECORD_VERSION, ...entry })}\n`);
}

/** The 0-based index of this call among the calls of `cli` (a one-byte append per call). */
function nextAttempt() {
  const counter = path.join(stateDir, `counter-${cli}`);
  fs.appendFileSync(counter, '.');
  return fs.statSync(counter).size - 1;
}

function optionValue(argv, flags) {
  for (let i = 0; i < argv.length; i += 1) {
    for (const flag of flags) {
      if (argv[i] === flag && i + 1 < argv.length) return argv[i + 1];
      if (argv[i].startsWith(`${flag}=`)) return argv[i].slice(flag.length + 1);
    }
  }
  return undefined;
}

async function readStdin() {
  if (process.stdin.isTTY) return '';
  const chunks = [];
  try {
    for await (const chunk of process.stdin) chunks.push(chunk);
  } catch {
    // EBADF/EINVAL when stdin is closed: nothing to read.
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Claude Code's `--input-format stream-json` (the Claude Agent SDK's transport): stdin stays open
 * for the whole session, one JSON message a line. Every `control_request` (the SDK's `initialize`
 * first) is answered with a bare `control_response` success, as the real CLI answers an
 * initialize it accepts; the first `{"type":"user"}` line is the turn: return the lines read so
 * far (recorded as stdin) and replay. Facts: @anthropic-ai/claude-agent-sdk 0.3.328 against
 * Claude Code 2.1.332 (the SDK writes initialize, then the user message, and closes stdin only
 * after the `result` line).
 */
function readStreamJsonTurn() {
  return new Promise((resolve) => {
    if (process.stdin.isTTY) return resolve('');
    let buffer = '';
    const lines = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      process.stdin.pause();
      resolve(lines.join('\n'));
    };
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => {
      if (done) return;
      buffer += chunk;
      let i;
      while (!done && (i = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        if (line.trim() === '') continue;
        lines.push(line);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message && message.type === 'control_request') {
          process.stdout.write(`${JSON.stringify({ type: 'control_response', response: { subtype: 'success', request_id: message.request_id, response: {} } })}\n`);
        } else if (message && message.type === 'user') finish();
      }
    });
    process.stdin.on('end', finish);
    process.stdin.on('error', finish);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function write(stream, data) {
  return new Promise((resolve) => {
    if (data === '' || data === undefined) return resolve();
    stream.write(data, () => resolve());
  });
}

async function play(script) {
  const chunks = Array.isArray(script.chunks)
    ? script.chunks
    : [
        { stream: 'stdout', data: script.stdout || '' },
        { stream: 'stderr', data: script.stderr || '' },
      ];
  for (const chunk of chunks) {
    if (chunk.delayMs) await sleep(chunk.delayMs);
    await write(chunk.stream === 'stderr' ? process.stderr : process.stdout, chunk.data);
  }
  if (script.delayMs) await sleep(script.delayMs);
}

/** The number of grandchildren a hanging attempt starts (`hang: { children: n }`). */
function childrenOf(script) {
  return typeof script.hang === 'object' && script.hang !== null ? Number(script.hang.children || 0) : 0;
}

/**
 * Start `n` grandchildren in this CLI's process group (not detached), stdout/stderr inherited: like
 * a tool subprocess or MCP server a real CLI leaves running. Each IGNORES SIGTERM (`trap '' TERM`
 * survives `exec`), so only SIGKILL to the process group ends it: a worker that sends its peer's
 * group SIGTERM and never escalates leaves it behind (issue 12 part 4; ce-pov's `reap` sends TERM,
 * then KILL to the group). Resolves once every grandchild has its signal ignored and is recorded,
 * so the fault is in place before the attempt is played and no worker can outrun it.
 */
function startGrandchildren(n, plan, attempt) {
  const maxHangMs = typeof plan.maxHangMs === 'number' ? plan.maxHangMs : 120000;
  const seconds = Math.ceil(maxHangMs / 1000);
  const shell = fs.existsSync('/bin/sh') ? '/bin/sh' : 'sh';
  const env = { ...process.env, PATH: `${process.env.PATH || ''}:/usr/bin:/bin` };
  const one = () =>
    new Promise((resolve) => {
      const child = spawn(shell, ['-c', `trap '' TERM; echo ready >&3; exec sleep ${seconds}`], { stdio: ['ignore', 'inherit', 'inherit', 'pipe'], env });
      let done = false;
      const ready = () => {
        if (done) return;
        done = true;
        const info = procInfo(child.pid);
        record({ kind: 'child', cli, attempt, pid: child.pid, parentPid: process.pid, pgid: info.pgid, startTicks: info.startTicks, ignoresSigterm: true, at: new Date().toISOString() });
        child.stdio[3].destroy();
        child.unref();
        resolve();
      };
      child.stdio[3].on('data', ready);
      child.stdio[3].on('error', () => undefined);
      child.on('error', () => resolve());
    });
  return Promise.all(Array.from({ length: n }, one));
}

/**
 * Write the attempt's side files (`files`, by role) where the CLI was told to put them: for each
 * role of the CLI's `sideFiles` (role -> flags, e.g. `last-message` -> `-o`, `--output-last-message`)
 * whose flag is in argv and whose content the attempt recorded. A role without its flag is not
 * written (the real CLI writes nothing either); a file that cannot be written is reported on stderr.
 */
function writeSideFiles(entry, script, argv) {
  const files = script.files && typeof script.files === 'object' ? script.files : {};
  const roles = entry.sideFiles && typeof entry.sideFiles === 'object' ? entry.sideFiles : {};
  for (const role of Object.keys(roles)) {
    if (typeof files[role] !== 'string') continue;
    const target = optionValue(argv, roles[role]);
    if (target === undefined) continue;
    try {
      fs.writeFileSync(path.resolve(target), files[role]);
    } catch (error) {
      process.stderr.write(`routecert fake ${cli}: could not write the ${role} file ${target}: ${error && error.message}\n`);
    }
  }
}

function hang(plan) {
  const maxHangMs = typeof plan.maxHangMs === 'number' ? plan.maxHangMs : 120000;
  setTimeout(() => process.exit(0), maxHangMs);
}

async function main() {
  const plan = readPlan();
  const secrets = Array.isArray(plan.secrets) ? plan.secrets : [];
  const entry = plan.clis && plan.clis[cli];
  const argv = process.argv.slice(2);
  const self = procInfo(process.pid);
  const base = { cli, pid: process.pid, pgid: self.pgid, startTicks: self.startTicks };

  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
    record({ kind: 'version', ...base, argv, at: new Date().toISOString() });
    await write(process.stdout, `${entry && entry.version ? entry.version : '0.0.0'} (routecert fake ${cli})\n`);
    process.exit(0);
  }

  const attempt = nextAttempt();
  const promptFlags = Array.isArray(plan.promptFileFlags) ? plan.promptFileFlags : ['--prompt-file'];
  const promptPath = optionValue(argv, promptFlags);
  let promptFile = null;
  if (promptPath !== undefined) {
    let content;
    try {
      content = fs.readFileSync(path.resolve(promptPath), 'utf8');
    } catch {
      content = null;
    }
    promptFile = { path: promptPath, content: content === null ? null : redactText(content, secrets) };
  }
  const argFiles = [];
  for (const flag of entry && Array.isArray(entry.argFiles) ? entry.argFiles : []) {
    const file = optionValue(argv, [flag]);
    if (file === undefined) continue;
    let content;
    try {
      content = redactText(fs.readFileSync(path.resolve(file), 'utf8'), secrets);
    } catch {
      content = null;
    }
    argFiles.push({ flag, path: file, content });
  }
  const streamInput = optionValue(argv, ['--input-format']) === 'stream-json';
  const stdin = promptPath !== undefined ? '' : streamInput ? await readStreamJsonTurn() : await readStdin();
  const script = entry && Array.isArray(entry.attempts) ? entry.attempts[attempt] || (entry.exhausted === 'repeat-last' ? entry.attempts[entry.attempts.length - 1] : undefined) : undefined;
  record({
    kind: 'call',
    ...base,
    attempt,
    argv: argv.map((a) => redactText(a, secrets)),
    cwd: process.cwd(),
    stdin: redactText(stdin, secrets),
    promptFile,
    ...(argFiles.length > 0 ? { argFiles } : {}),
    env: redactEnv(process.env, secrets),
    source: script && script.source ? script.source : null,
    at: new Date().toISOString(),
  });

  if (!entry) {
    await write(process.stderr, `routecert fake ${cli}: no plan for this CLI (the route under test does not use it)\n`);
    process.exit(127);
  }
  if (!script) {
    await write(process.stderr, `routecert fake ${cli}: called ${attempt + 1} times; the plan has ${entry.attempts.length} attempt(s)\n`);
    process.exit(96);
  }
  const children = childrenOf(script);
  if (children > 0) await startGrandchildren(children, plan, attempt);
  await play(script);
  if (script.hang) return hang(plan);
  writeSideFiles(entry, script, argv);
  if (script.signal) {
    process.kill(process.pid, script.signal);
    await sleep(1000);
  }
  process.exit(typeof script.exitCode === 'number' ? script.exitCode : 0);
}

main().catch((error) => {
  try {
    process.stderr.write(`routecert fake ${cli}: ${error && error.stack ? error.stack : String(error)}\n`);
  } finally {
    process.exit(98);
  }
});
