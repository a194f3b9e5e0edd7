/**
 * `routecert init [--schemas <folder>]`: a starter routecert config in a team's repo that passes at
 * once, and what to edit next.
 *
 * Writes, in the target folder (never overwriting a file without `force`):
 * - `routecert.config.ts` (or `.json` with `format: 'json'`): one contract per schema file of the
 *   schemas folder (`*.schema.json`, else `*.json`), named after the file; anchor = the schema's
 *   first required property (else its first property); finality = a boolean `final` or `done`
 *   property when the schema has one (with a retry policy: 600 s window, 60 s minimum), else `none`;
 *   selection `score`; `emptyIsAnswer` when the anchor is an array the schema lets be empty; `clis` = the schema-flag CLIs found installed (else every schema-flag CLI);
 * - with no schema file: `schemas/answer.schema.json`, an example schema, and its contract;
 * - `cases/<contract>/`: per contract, an accepted answer (a payload generated from the schema, as
 *   Claude Code's `structured_output`), prose without an answer (`dropped-unusable`), for an
 *   `emptyIsAnswer` contract the empty anchor list (`accepted`) when the schema takes it, and for a
 *   contract with finality a non-final answer on its last attempt (`dropped-nonfinal`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineContract, type ContractDefinition } from '#src/contract/define.ts';
import { compileValidator } from '#src/contract/validator.ts';
import { isPlainObject } from '#src/envelope/keys.ts';
import { schemaSizeProblem } from '#src/schema/limit.ts';
import { redactOutput, redactValue } from '#src/diagnostics/redact.ts';
import { samplePayload } from '#src/harness/startupProbes.ts';
import { discoverCli } from '#src/probe/discover.ts';
import { PROBE_DRIVERS } from '#src/probe/drivers.ts';
import { caseId } from '#src/record/caseId.ts';
import type { CaseFile } from '#src/envelope/caseTypes.ts';
import { SCHEMA_FLAG_CLIS } from './project.ts';
import { describeJsonSyntaxError } from '#src/schema/jsonError.ts';

/** Options of {@link initProject}: `dir` (@default the working folder), `schemas` (a folder, relative to `dir`), `force`, `format`, `clis` (skip discovery). */
export interface InitOptions {
  dir?: string;
  schemas?: string;
  force?: boolean;
  format?: 'ts' | 'json';
  clis?: string[];
}

/**
 * What init did, and the lines it prints:
 * - `written`: files written; `skipped`: files that exist and were kept (each also in `kept`);
 * - `kept`: each kept file with why: `same` (what init would write now) or `differs` (`--force`
 *   would replace it);
 * - `wouldAdd`: files init would write but did not, because the config it belongs to was kept
 *   (a case of a contract the kept config does not define would be an orphan);
 * - `removed`: with `force`, starter cases (tag `starter`) of contracts the new config no longer defines;
 * - `redacted`: starter cases whose generated answer held a value of the schema that looks like a
 *   secret, written redacted (the case may then not pass until that value is replaced).
 */
export interface InitResult {
  written: string[];
  skipped: string[];
  kept: { file: string; state: 'same' | 'differs' }[];
  wouldAdd: string[];
  removed: string[];
  /** Starter cases whose answer holds a value of the schema that looks like a secret (an e-mail, a key, a home path), written redacted: it may not pass until replaced. */
  redacted: string[];
  contracts: ContractDefinition[];
  next: string[];
}

/** A file's content for comparison: a case without its provenance date (a re-run on another day writes the same case). */
function comparable(rel: string, text: string): string {
  if (!rel.startsWith('cases/')) return text;
  try {
    const c = JSON.parse(text) as CaseFile;
    return JSON.stringify({ ...c, provenance: { ...c.provenance, date: '' } });
  } catch {
    return text;
  }
}

const EXAMPLE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'answer',
  type: 'object',
  additionalProperties: false,
  required: ['answer', 'confidence'],
  properties: {
    answer: { type: 'string', description: 'The answer, in one paragraph.' },
    confidence: { type: 'string', enum: ['low', 'medium', 'high'] },
  },
};

/** The folder's schema files: `*.schema.json`, else `*.json`, sorted. */
async function schemaFiles(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).sort();
  const tagged = names.filter((n) => n.endsWith('.schema.json'));
  return tagged.length > 0 ? tagged : names.filter((n) => n.endsWith('.json'));
}

/**
 * A contract name from a schema file name (`code-review.schema.json` -> `code-review`), read through
 * the one redaction of output: a file name that looks like a secret names no contract, case or folder
 * (the contract is then `contract`).
 */
function nameOf(file: string): string {
  const name = path.basename(file).replace(/\.schema\.json$|\.json$/, '');
  return redactOutput(name) !== name ? 'contract' : name.replace(/[^A-Za-z0-9._-]+/g, '-') || 'contract';
}

/**
 * The starter retry paragraph of a contract whose finality key is `flag`: it names that key and the
 * schema, and nothing of the pov contract's own answer (its position, evidence or "Blocked").
 */
function retryParagraph(flag: string): string {
  return `Your previous response set "${flag}" to false, so it was not your final answer. This response is the final one: answer again with your complete answer, valid against the schema, and "${flag}": true.`;
}

/** Does `schema` describe an array (`type: "array"`, or a type list naming it)? */
function isArraySchema(schema: Record<string, unknown>): boolean {
  return schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
}

/** The starter definition for `schema` (see the module doc), with its schema path relative to the config. */
export function starterDefinition(name: string, schemaPath: string, schema: Record<string, unknown>, clis: string[]): ContractDefinition {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const flag = ['final', 'done'].find((k) => isPlainObject(properties[k]) && (properties[k] as Record<string, unknown>).type === 'boolean');
  const anchor = required.find((r) => r !== flag) ?? Object.keys(properties).find((k) => k !== flag) ?? required[0] ?? 'answer';
  // An anchor array the schema lets be empty: `[]` is a "found nothing" answer, not a missing one
  // (init left it off, and the starter contract dropped a schema-valid empty list as unusable).
  const anchorSchema = properties[anchor];
  const emptyIsAnswer = isPlainObject(anchorSchema) && isArraySchema(anchorSchema) && !(typeof anchorSchema.minItems === 'number' && anchorSchema.minItems >= 1);
  const def: ContractDefinition = { name, schema: schemaPath, anchor, finality: flag ? { key: flag } : 'none', selection: 'score', ...(emptyIsAnswer ? { emptyIsAnswer } : {}), clis };
  if (flag) def.retry = { hardWindowMs: 600_000, retryMinMs: 60_000, paragraph: retryParagraph(flag) };
  return def;
}

function claudeEnvelope(result: string, structured?: unknown): CaseFile['attempts'][number] {
  const doc: Record<string, unknown> = { type: 'result', subtype: 'success', is_error: false, result };
  if (structured !== undefined) doc.structured_output = structured;
  return { stdout: `${JSON.stringify(doc)}\n`, stderr: '', exitCode: 0, signal: null, timedOut: false, elapsedMs: 1_000 };
}

function caseFile(contract: string, description: string, attempts: CaseFile['attempts'], expect: CaseFile['expect'], tags: string[]): CaseFile {
  const c: CaseFile = {
    id: '',
    description,
    route: 'claude-code/json',
    cli: { name: 'claude', version: 'starter' },
    provenance: { source: 'generated', ref: 'routecert init: a starter case; replace it with envelopes your CLIs printed: README "Recording your contract" (record --config) and "A bug report to a case" (record --from)', date: new Date().toISOString().slice(0, 10) },
    contract,
    attempts,
    expect,
    tags: ['starter', ...tags],
  };
  c.id = caseId(c);
  return c;
}

/** The starter cases of a contract (see the module doc). */
export async function starterCases(def: ContractDefinition, schema: Record<string, unknown>): Promise<Record<string, CaseFile>> {
  const flag = def.finality === 'none' ? null : def.finality.key;
  const payload = await samplePayload(schema, {});
  if (flag) payload[flag] = true;
  const cases: Record<string, CaseFile> = {
    'accepted.json': caseFile(def.name, `${def.name}: a schema-valid answer in structured_output is accepted`, [claudeEnvelope(JSON.stringify(payload), payload)], { verdict: 'accepted', origin: 'structured_output', value: payload }, ['accepted']),
    'prose-only.json': caseFile(def.name, `${def.name}: prose without a JSON answer is dropped`, [claudeEnvelope('I could not finish the review in time.')], { verdict: 'dropped-unusable' }, ['no-answer']),
  };
  if (def.emptyIsAnswer) {
    // "Found nothing" is accepted, when the schema takes the empty list with the rest of the sample.
    const nothing = { ...payload, [def.anchor]: [] };
    if (compileValidator(schema)(nothing).length === 0) {
      cases['found-nothing.json'] = caseFile(def.name, `${def.name}: an empty "${def.anchor}" list is a "found nothing" answer, accepted (emptyIsAnswer)`, [claudeEnvelope(JSON.stringify(nothing), nothing)], { verdict: 'accepted', origin: 'structured_output', value: nothing }, ['accepted', 'empty-answer']);
    }
  }
  if (flag) {
    const nonfinal = { ...payload, [flag]: false };
    const attempt = { ...claudeEnvelope(JSON.stringify(nonfinal), nonfinal), elapsedMs: 590_000 };
    cases['nonfinal-no-time-left.json'] = caseFile(def.name, `${def.name}: an answer with ${flag}: false and too little of the window left is dropped non-final`, [attempt], { verdict: 'dropped-nonfinal', attempt: 0 }, ['finality']);
  }
  return cases;
}

function configText(defs: ContractDefinition[], format: 'ts' | 'json'): string {
  if (format === 'json') return `${JSON.stringify({ cases: 'cases', contracts: defs }, null, 2)}\n`;
  const body = defs.map((d) => `    defineContract(${JSON.stringify(d, null, 2).replace(/\n/g, '\n    ')}),`).join('\n');
  return [
    '// routecert config, written by `npx routecert init`. Each contract judges the answers of one production schema;',
    '// a case (cases/<contract>/*.json) names its contract. Fields: see the README section "Your own contracts".',
    "import { defineConfig, defineContract } from 'routecert';",
    '',
    'export default defineConfig({',
    "  cases: 'cases',",
    '  contracts: [',
    body,
    '  ],',
    '});',
    '',
  ].join('\n');
}

/** The schema-flag CLIs found installed (routecert names), in driver order. */
export async function installedSchemaClis(): Promise<string[]> {
  const drivers = PROBE_DRIVERS.filter((d) => SCHEMA_FLAG_CLIS.includes(d.cli));
  const found = await Promise.all(drivers.map(async (d) => ((await discoverCli(d.cli, { bin: d.bin, npmPackage: d.npmPackage })).bin !== null ? d.cli : null)));
  return found.filter((c): c is string => c !== null);
}

/**
 * Write the starter config and cases.
 *
 * @throws Error for a schemas folder that does not exist or a schema file that is not a JSON object
 *   (nothing is written then), or a contract the generated definition cannot build.
 */
export async function initProject(options: InitOptions = {}): Promise<InitResult> {
  const dir = path.resolve(options.dir ?? process.cwd());
  const format = options.format ?? 'ts';
  // Every file is planned first, then written: a kept config keeps its cases too (no orphans).
  const planned = new Map<string, string>();
  const write = async (rel: string, text: string): Promise<void> => {
    planned.set(rel, text);
  };
  const found = options.clis ?? (await installedSchemaClis());
  const clis = found.length > 0 ? found : [...SCHEMA_FLAG_CLIS];
  const schemas: { rel: string; schema: Record<string, unknown> }[] = [];
  if (options.schemas !== undefined) {
    const folder = path.resolve(dir, options.schemas);
    if (!existsSync(folder)) throw new Error(`[routecert] init: the schemas folder ${options.schemas} does not exist`);
    const files = await schemaFiles(folder);
    if (files.length === 0) throw new Error(`[routecert] init: ${options.schemas} holds no schema file (*.schema.json, else *.json); put your production schemas there, or leave --schemas out for an example schema`);
    for (const f of files) {
      let schema: unknown;
      const tooLarge = schemaSizeProblem(path.join(folder, f));
      if (tooLarge) throw new Error(`[routecert] init: ${tooLarge}`);
      const text = await readFile(path.join(folder, f), 'utf8');
      try {
        schema = JSON.parse(text);
      } catch (error) {
        throw new Error(`[routecert] init: ${path.join(options.schemas, f)} is not JSON: ${describeJsonSyntaxError(text, error)}`, { cause: error });
      }
      if (!isPlainObject(schema)) throw new Error(`[routecert] init: ${path.join(options.schemas, f)} is not a JSON Schema object`);
      schemas.push({ rel: path.relative(dir, path.join(folder, f)).split(path.sep).join('/'), schema });
    }
  }
  if (schemas.length === 0) {
    await write('schemas/answer.schema.json', `${JSON.stringify(EXAMPLE_SCHEMA, null, 2)}\n`);
    schemas.push({ rel: 'schemas/answer.schema.json', schema: EXAMPLE_SCHEMA });
  }
  const defs: ContractDefinition[] = [];
  const redacted: string[] = [];
  for (const { rel, schema } of schemas) {
    let name = nameOf(rel);
    while (defs.some((d) => d.name === name)) name = `${name}-2`;
    const def = starterDefinition(name, rel, schema, clis);
    defineContract({ ...def, schema }); // throws now for a schema that does not compile
    defs.push(def);
    for (const [file, c] of Object.entries(await starterCases(def, schema))) {
      // A case file is redacted as every case routecert writes (its id over the redacted content).
      const safe = redactValue(c);
      safe.id = caseId(safe);
      if (JSON.stringify(safe.attempts) !== JSON.stringify(c.attempts)) redacted.push(`cases/${name}/${file}`);
      await write(`cases/${name}/${file}`, `${JSON.stringify(safe, null, 2)}\n`);
    }
  }
  const configName = format === 'json' ? 'routecert.config.json' : 'routecert.config.ts';
  await write(configName, configText(defs, format));
  const written: string[] = [];
  const kept: InitResult['kept'] = [];
  const wouldAdd: string[] = [];
  const removed: string[] = [];
  const configKept = existsSync(path.join(dir, configName)) && !options.force;
  for (const [rel, text] of planned) {
    const file = path.join(dir, rel);
    if (existsSync(file) && !options.force) {
      kept.push({ file: rel, state: comparable(rel, await readFile(file, 'utf8')) === comparable(rel, text) ? 'same' : 'differs' });
      continue;
    }
    if (!existsSync(file) && configKept) {
      wouldAdd.push(rel);
      continue;
    }
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    written.push(rel);
  }
  if (options.force) {
    // Starter cases of contracts the new config no longer defines would fail `run`: they go.
    const names = new Set(defs.map((d) => d.name));
    const casesDir = path.join(dir, 'cases');
    for (const rel of existsSync(casesDir) ? await readdir(casesDir, { recursive: true }) : []) {
      const file = path.join(casesDir, rel);
      if (!rel.endsWith('.json')) continue;
      try {
        const c = JSON.parse(await readFile(file, 'utf8')) as CaseFile;
        if (c.tags?.includes('starter') && !names.has(c.contract)) {
          await rm(file);
          removed.push(`cases/${rel.split(path.sep).join('/')}`);
        }
      } catch {
        // Not a starter case of ours: never touched.
      }
    }
  }
  const skipped = kept.map((k) => k.file);
  const next = [
    `Next: edit ${configName}:`,
    '  - check each contract\'s anchor (the member every answer must bear) and finality ({ key } or "none"),',
    `  - clis: the CLIs you send each schema to (installed schema-flag CLIs found: ${found.length > 0 ? found.join(', ') : 'none, so every schema-flag CLI'});`,
    'then replace the starter cases in cases/ with envelopes your CLIs printed, and run:',
    '  npx routecert record --config     your schemas through the installed CLIs of clis, hermetically: a case per scenario',
    '  npx routecert record --from <capture> --route <route> --expect <verdict>   a pasted bug report to a case',
    '  npx routecert run                 judge every case by its contract',
    '  npx routecert lint                lint your schemas for the CLIs you send them to (this folder\'s config)',
    `  npx routecert probe --startup --config ${configName}   does each installed CLI accept your schemas at startup?`,
    `  npx routecert fuzz --config ${configName}     payloads generated from your schemas, in every envelope style`,
  ];
  return { written, skipped, kept, wouldAdd, removed, redacted, contracts: defs, next };
}
