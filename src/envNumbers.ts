/**
 * The numeric environment variables routecert reads, and the one reader of them: a value that is
 * not what the variable takes is refused (`routecert` exits 2 before any command runs, naming the
 * variable and what it takes), never replaced by the default (issue 23; a typo such as
 * `ROUTECERT_NUM_RUNS=abc` once ran 100 runs, `ROUTECERT_SEED=abc` was an "internal error").
 * An unset or empty variable gives the default.
 */

/**
 * One numeric variable.
 * - `name`: the variable;
 * - `whole`: only whole numbers (`1.5` is refused);
 * - `min`, `max`: the bounds, inclusive (`above0`: above 0, exclusive);
 * - `words`: other values it takes besides numbers (`random` for the seed), read as `undefined`;
 * - `is`, `takes`: the message's two halves, `<name>="<raw>" is no <is>: it takes <takes>`.
 */
export interface NumericVariable {
  name: string;
  whole: boolean;
  above0?: boolean;
  min?: number;
  max?: number;
  words?: readonly string[];
  is: string;
  takes: string;
}

/** Bytes kept of one stream of a child by default: 8 MiB (src/process/capture.ts). */
export const DEFAULT_CAPTURE_BYTES = 8 * 2 ** 20;

/** The numeric variables routecert reads, each checked before any command runs. */
export const NUMERIC_VARIABLES = {
  captureBytes: {
    name: 'ROUTECERT_CAPTURE_BYTES',
    whole: true,
    above0: true,
    max: Number.MAX_SAFE_INTEGER,
    is: 'byte count',
    takes: `a whole number of bytes above 0 (kept of each stdout and stderr; unset for the default, ${DEFAULT_CAPTURE_BYTES} = 8 MiB)`,
  },
  maxSchemaMb: {
    name: 'ROUTECERT_MAX_SCHEMA_MB',
    whole: false,
    above0: true,
    is: 'size',
    takes: 'a number of MiB above 0 (the largest schema file routecert reads; unset for the default, 2 MiB)',
  },
  configTimeoutMs: {
    name: 'ROUTECERT_CONFIG_TIMEOUT_MS',
    whole: true,
    above0: true,
    max: Number.MAX_SAFE_INTEGER,
    is: 'duration',
    takes: 'a whole number of milliseconds above 0 (how long a config may take to load; unset for the default, 30000)',
  },
  numRuns: {
    name: 'ROUTECERT_NUM_RUNS',
    whole: true,
    above0: true,
    max: Number.MAX_SAFE_INTEGER,
    is: 'run count',
    takes: "a whole number above 0 (generated runs per property, raising each property's own; unset for the properties' own)",
  },
  seed: {
    name: 'ROUTECERT_SEED',
    whole: true,
    min: -(2 ** 31),
    max: 2 ** 32 - 1,
    words: ['random'],
    is: 'seed',
    takes: 'a 32-bit integer or "random" (the fast-check seed; unset for a fresh one)',
  },
} as const satisfies Record<string, NumericVariable>;

/**
 * Why `variable` in `env` is not what it takes (`abc`, `0`, `1.5`, `8M`), or null when it is, or
 * is unset or empty.
 */
export function numericVariableProblem(variable: NumericVariable, env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env[variable.name];
  if (raw === undefined || raw.trim() === '') return null;
  const text = raw.trim();
  if (variable.words?.includes(text)) return null;
  const n = Number(text);
  const shape = variable.whole ? /^-?\d+$/ : /^-?\d+(?:\.\d+)?$/;
  const fits = shape.test(text) && Number.isFinite(n) && (!variable.above0 || n > 0) && (variable.min === undefined || n >= variable.min) && (variable.max === undefined || n <= variable.max);
  return fits ? null : `${variable.name}=${JSON.stringify(raw)} is no ${variable.is}: it takes ${variable.takes}`;
}

/**
 * The value of `variable` in `env`, or `undefined` when it is unset, empty, one of its `words`, or
 * invalid (the command line refuses an invalid one first: {@link numericVariablesProblem}).
 */
export function numericVariable(variable: NumericVariable, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[variable.name]?.trim();
  if (raw === undefined || raw === '' || variable.words?.includes(raw) || numericVariableProblem(variable, env) !== null) return undefined;
  return Number(raw);
}

/**
 * The first of {@link NUMERIC_VARIABLES} whose value in `env` is not what it takes, as
 * {@link numericVariableProblem} words it; null when every one is fine. `routecert` exits 2 with
 * it before any command runs.
 */
export function numericVariablesProblem(env: NodeJS.ProcessEnv = process.env): string | null {
  for (const variable of Object.values(NUMERIC_VARIABLES)) {
    const problem = numericVariableProblem(variable, env);
    if (problem !== null) return problem;
  }
  return null;
}
