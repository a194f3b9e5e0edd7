/**
 * The reference worker's command line (`node bin/routecert-worker.js ...`): parses arguments,
 * reads the schema and prompt files, runs {@link runWorker}, and returns the exit code. Only the
 * bin file sets `process.exitCode`.
 *
 * Exit codes: 0 an artifact was published; 1 nothing was published (dropped, timed out, crashed,
 * provider error, startup rejection); 2 usage error.
 */
import { appendFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { WORKER_ROUTES } from './routes.ts';
import { WINDOW_ENV, WorkerUsageError } from './windows.ts';
import { runWorker, type ContractMaker } from './worker.ts';

/** The `--help` text. */
export const WORKER_USAGE = `Usage: routecert-worker --route <route> --schema <file> --prompt-file <file> --out <file> [--log <file>] [--model <id>]

Runs the route's CLI (found on PATH) headless with the schema, judges its answer with the pov
contract, retries once with a final-answer paragraph when the answer is not final, and writes the
accepted answer to --out. Logs go to --log (appended) or stderr.

Routes: ${Object.keys(WORKER_ROUTES).join(', ')}
Windows (seconds, from the environment): ${WINDOW_ENV.hardWindowS} (hard, default 600), ${WINDOW_ENV.idleWindowS} (idle, default 180, 0 = off), ${WINDOW_ENV.retryMinS} (retry minimum, default 60)
Exit codes: 0 published, 1 nothing published, 2 usage error.
`;

/**
 * Run the worker command line `argv` (without `node` and the script).
 *
 * @param seams for miniature workers in tests: another contract maker.
 * @returns the exit code.
 */
export async function workerMain(argv: string[], seams: { contract?: ContractMaker } = {}): Promise<number> {
  let logLine = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        route: { type: 'string' },
        schema: { type: 'string' },
        'prompt-file': { type: 'string' },
        out: { type: 'string' },
        log: { type: 'string' },
        model: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(WORKER_USAGE);
      return 0;
    }
    for (const name of ['route', 'schema', 'prompt-file', 'out'] as const) {
      if (values[name] === undefined) throw new WorkerUsageError(`--${name} is required\n${WORKER_USAGE}`);
    }
    if (values.log !== undefined) {
      const file = values.log;
      logLine = (line) => appendFileSync(file, `${line}\n`);
    }
    const schema = JSON.parse(await readFile(values.schema!, 'utf8')) as Record<string, unknown>;
    const prompt = await readFile(values['prompt-file']!, 'utf8');
    const result = await runWorker({
      route: values.route!,
      schema,
      prompt,
      out: values.out!,
      log: logLine,
      signal: controller.signal,
      ...(values.model ? { model: values.model } : {}),
      ...(seams.contract ? { contract: seams.contract } : {}),
    });
    return result.published !== null ? 0 : 1;
  } catch (error) {
    const message = error instanceof WorkerUsageError ? error.message : `[routecert-worker] ${(error as Error).message}`;
    logLine(message);
    return error instanceof WorkerUsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') || error instanceof SyntaxError || (error as NodeJS.ErrnoException).code === 'ENOENT' ? 2 : 1;
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}
