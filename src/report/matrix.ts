/**
 * The route x behaviour-class matrix: for each route, how many cases of each behaviour class passed.
 * A behaviour class is one of the failure classes routecert exists for, read off a case's tags (a
 * case can be in several). Writers print it; they never judge.
 */
import { isCertification } from './certificates.ts';
import type { CaseResult } from './types.ts';

/**
 * The behaviour classes, in print order, each with the tags that put a case in it (the probe plans',
 * `record --config`'s and documented cases' tags) and what it is. README.md's table of the matrix
 * columns is generated from this list ({@link behaviourClassesMarkdown}).
 */
export const BEHAVIOUR_CLASSES: readonly { name: string; tags: readonly string[]; what: string }[] = [
  { name: 'final', tags: ['final'], what: 'a well-formed final answer' },
  { name: 'key-case', tags: ['key-case'], what: "where a CLI's answer lands and how its key is spelled (`structured_output`, `StructuredOutput`, `structuredOutput`, ...)" },
  { name: 'placeholder', tags: ['placeholder-then-final'], what: 'a placeholder first, then the final answer' },
  { name: 'nonfinal', tags: ['nonfinal', 'retry'], what: 'a non-final answer: retried, or dropped non-final' },
  { name: 'missing-final', tags: ['missing-final'], what: 'an answer without its finality key (fails closed)' },
  { name: 'missing-field', tags: ['missing-required'], what: "an answer without one of the schema's required fields (`record --config`'s `missing-<field>`)" },
  { name: 'prose', tags: ['prose-only'], what: 'prose without JSON' },
  { name: 'scalar', tags: ['scalar', 'scalar-or-array'], what: "a JSON scalar or array instead of an object (`record --config`'s `scalar`)" },
  { name: 'fenced', tags: ['fenced'], what: 'the answer inside a code fence' },
  { name: 'api-error', tags: ['api-error'], what: 'the provider answers an HTTP error (400, 429, 529)' },
  { name: 'timeout', tags: ['timeout'], what: 'a run that outlives its deadline (a stall)' },
  { name: 'startup', tags: ['startup-rejected'], what: 'the CLI refuses the schema or its invocation before any model turn' },
  { name: 'stderr', tags: ['short-stderr', 'long-evidence'], what: "the CLI's stderr kept as evidence, short or clipped" },
];

/**
 * The README table of the matrix columns: one row per {@link BEHAVIOUR_CLASSES} entry, with the case
 * tags that count a case there.
 */
export function behaviourClassesMarkdown(): string {
  const rows = BEHAVIOUR_CLASSES.map((b) => `| \`${b.name}\` | ${b.tags.map((t) => `\`${t}\``).join(', ')} | ${b.what} |`);
  return ['| column | a case is counted there when its tags hold | what the case does |', '|---|---|---|', ...rows, ''].join('\n');
}

/** One cell: cases of that route and class, and how many passed. */
export interface MatrixCell {
  total: number;
  pass: number;
}

/** Rows (routes, sorted) x columns ({@link BEHAVIOUR_CLASSES} that have at least one case). */
export interface BehaviourMatrix {
  routes: string[];
  classes: string[];
  cell(route: string, behaviour: string): MatrixCell;
}

/**
 * Build the matrix of `cases`. Cases in no class are left out, and so are certification results
 * (`certify:<route>`): a certificate is read by its checks (src/report/certificates.ts), which pin
 * a worker's behaviour, not an envelope's.
 */
export function behaviourMatrix(cases: readonly CaseResult[]): BehaviourMatrix {
  const cells = new Map<string, MatrixCell>();
  const routes = new Set<string>();
  const used = new Set<string>();
  for (const c of cases) {
    if (isCertification(c)) continue;
    for (const b of BEHAVIOUR_CLASSES) {
      if (!b.tags.some((t) => c.tags.includes(t))) continue;
      routes.add(c.route);
      used.add(b.name);
      const key = `${c.route}\u0000${b.name}`;
      const cell = cells.get(key) ?? { total: 0, pass: 0 };
      cell.total += 1;
      if (c.outcome === 'pass') cell.pass += 1;
      cells.set(key, cell);
    }
  }
  return {
    routes: [...routes].sort(),
    classes: BEHAVIOUR_CLASSES.map((b) => b.name).filter((n) => used.has(n)),
    cell: (route, behaviour) => cells.get(`${route}\u0000${behaviour}`) ?? { total: 0, pass: 0 },
  };
}

/** The matrix as fixed-width text: `pass/total` per cell, `-` where a route has no case of the class. */
export function matrixText(m: BehaviourMatrix): string {
  if (m.routes.length === 0) return '';
  const routeWidth = m.routes.reduce((w, r) => Math.max(w, r.length), 5);
  const widths = m.classes.map((c) => Math.max(c.length, 5));
  const header = `${'route'.padEnd(routeWidth)}  ${m.classes.map((c, i) => c.padStart(widths[i]!)).join('  ')}`;
  const lines = m.routes.map((route) => {
    const cells = m.classes.map((c, i) => {
      const cell = m.cell(route, c);
      return (cell.total === 0 ? '-' : `${cell.pass}/${cell.total}`).padStart(widths[i]!);
    });
    return `${route.padEnd(routeWidth)}  ${cells.join('  ')}`;
  });
  return [header, ...lines].join('\n');
}
