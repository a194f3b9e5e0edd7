/**
 * How the reference worker runs each route's CLI headless with a schema: the executable (found on
 * PATH, so a fake CLI can stand in), the argv, where the prompt goes, and whether the output grows
 * while the model works (which decides whether idle detection applies).
 *
 * Flags follow the consumer in research/ce-plugin.md section 1.2 (ce-pov), minus its model pins:
 * - Claude Code: prompt on stdin, `-p`, `--json-schema <schema JSON>` as ONE argv token,
 *   `--permission-mode dontAsk`; stream-json under `-p` needs `--verbose` (Claude Code 2.1.332).
 * - xAI grok: `--prompt-file <file> --verbatim` (without `--verbatim` a large prompt is cut to a
 *   preview, PR #1339), `--json-schema` implies buffered `--output-format json`.
 * No route ever passes a flag that lifts permission checks (`--dangerously-skip-permissions`,
 * `--yolo`, `--force`, `-f`, `--always-approve`, `bypassPermissions`); the certificate's
 * `forbidden-flags` check verifies it on every recorded call.
 */

/** Inputs of one argv: the schema as compact JSON text, the prompt file (file routes), an optional model. */
export interface RouteArgvInput {
  schemaJson: string;
  promptFile: string | null;
  model?: string;
}

/**
 * One route the reference worker can run.
 * - `cli`: the executable's name, looked up on the worker's PATH;
 * - `streams`: stdout grows while the model works (idle detection applies); buffered routes
 *   (`--output-format json`) print everything at the end and are guarded by the hard window only;
 * - `promptVia`: `stdin` (written, then closed) or `file` (`--prompt-file`; stdin is the null device).
 */
export interface WorkerRoute {
  route: string;
  cli: string;
  streams: boolean;
  promptVia: 'stdin' | 'file';
  argv(input: RouteArgvInput): string[];
}

function claude(format: 'json' | 'stream-json') {
  return ({ schemaJson, model }: RouteArgvInput): string[] => [
    '-p',
    '--output-format',
    format,
    ...(format === 'stream-json' ? ['--verbose'] : []),
    '--json-schema',
    schemaJson,
    ...(model ? ['--model', model] : []),
    '--max-turns',
    '15',
    '--no-session-persistence',
    '--permission-mode',
    'dontAsk',
  ];
}

/** Every route the reference worker runs, by route id. */
export const WORKER_ROUTES: Readonly<Record<string, WorkerRoute>> = {
  'claude-code/json': { route: 'claude-code/json', cli: 'claude', streams: false, promptVia: 'stdin', argv: claude('json') },
  'claude-code/stream-json': { route: 'claude-code/stream-json', cli: 'claude', streams: true, promptVia: 'stdin', argv: claude('stream-json') },
  'grok/json': {
    route: 'grok/json',
    cli: 'grok',
    streams: false,
    promptVia: 'file',
    argv: ({ schemaJson, promptFile, model }) => [
      '--prompt-file',
      promptFile ?? '',
      '--verbatim',
      ...(model ? ['--model', model] : []),
      '--permission-mode',
      'dontAsk',
      '--deny',
      'Edit',
      '--deny',
      'Write',
      '--deny',
      'Bash',
      '--deny',
      'Task',
      '--no-subagents',
      '--max-turns',
      '15',
      '--json-schema',
      schemaJson,
      '--output-format',
      'json',
    ],
  },
};
