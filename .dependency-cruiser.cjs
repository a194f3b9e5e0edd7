/**
 * Layer rules of src/, checked in CI by dependency-cruiser (`npm run deps`, .ci/run).
 *
 * The layers are written once, in LAYERS below: each layer names the folders (or files) it is made
 * of and the layers it may import. Every other import from one layer of src/ into another is an
 * error, and so is any import cycle (type-only imports included: a type circle is a cycle too).
 * Data flows one way (DESIGN.md): envelope -> route decoder -> decoded -> contract -> verdict ->
 * report; routes -> envelope/scan/schema; contract -> envelope; harness/probe -> contract, routes;
 * report -> types only; cli -> everything (issue 20, point 4).
 *
 * There is no baseline of known violations: CI (`npm run deps`) fails on any.
 */

/** `base` is the shared toolkit every layer may use; it imports nothing of src/. */
const BASE = ['base'];

/**
 * The layers, bottom up. `paths`: regexes of the modules in it (from the repo root); `may`: the
 * layers its modules may import (a layer may always import itself); `typesFrom`: layers it may
 * import types from, and nothing else.
 */
const LAYERS = {
  base: { paths: ['^src/(pointer|arrays|jsonString|paths|verdicts|memory|envNumbers)\\.ts$', '^src/diagnostics/'], may: [] },
  scan: { paths: ['^src/scan/'], may: BASE },
  schema: { paths: ['^src/schema/'], may: BASE },
  envelope: { paths: ['^src/envelope/'], may: [...BASE, 'scan', 'schema'] },
  mock: { paths: ['^src/mock/'], may: [...BASE, 'schema'] },
  process: { paths: ['^src/process/'], may: [...BASE, 'envelope'] },
  policy: { paths: ['^src/policy/'], may: [...BASE, 'envelope'] },
  routes: { paths: ['^src/routes/'], may: [...BASE, 'envelope', 'scan', 'schema', 'mock', 'process'] },
  contract: { paths: ['^src/contract/'], may: [...BASE, 'envelope', 'scan', 'schema', 'policy'] },
  worker: { paths: ['^src/worker/'], may: [...BASE, 'envelope', 'contract', 'policy', 'process', 'routes'] },
  arbitraries: { paths: ['^src/arbitraries/'], may: [...BASE, 'envelope', 'scan', 'contract', 'routes'] },
  probe: { paths: ['^src/probe/'], may: [...BASE, 'envelope', 'scan', 'schema', 'mock', 'process', 'contract', 'routes'] },
  record: { paths: ['^src/record/'], may: [...BASE, 'envelope', 'scan', 'schema', 'mock', 'contract', 'routes', 'probe'] },
  report: { paths: ['^src/report/'], may: BASE, typesFrom: ['envelope', 'contract', 'routes', 'probe', 'record', 'harness', 'schema', 'policy'] },
  harness: {
    paths: ['^src/harness/'],
    may: [...BASE, 'envelope', 'scan', 'schema', 'mock', 'process', 'policy', 'routes', 'contract', 'worker', 'probe', 'record', 'report', 'arbitraries'],
  },
  properties: { paths: ['^src/properties/'], may: [...BASE, 'envelope', 'scan', 'contract', 'routes', 'arbitraries', 'record', 'harness'] },
  config: {
    paths: ['^src/config/'],
    may: [...BASE, 'envelope', 'scan', 'schema', 'policy', 'contract', 'routes', 'arbitraries', 'probe', 'record', 'report', 'harness', 'properties'],
  },
  cli: { paths: ['^src/cli/'], may: 'everything' },
  api: { paths: ['^src/index\\.ts$'], may: 'everything' },
};

const anyOf = (patterns) => `(${patterns.join('|')})`;
const pathsOf = (names) => names.flatMap((name) => LAYERS[name].paths);

/** One rule per layer: an import into src/ outside the layers it may use. */
function layerRules() {
  const rules = [];
  for (const [name, layer] of Object.entries(LAYERS)) {
    if (layer.may === 'everything') continue;
    const allowed = pathsOf([name, ...layer.may]);
    rules.push({
      name: `layer-${name}`,
      comment: `${name} may import ${layer.may.length ? layer.may.join(', ') : 'nothing of src/ but itself'}${layer.typesFrom ? ` (and types from ${layer.typesFrom.join(', ')})` : ''} (.dependency-cruiser.cjs LAYERS)`,
      severity: 'error',
      from: { path: anyOf(layer.paths), pathNot: '\\.test\\.ts$' },
      to: {
        path: '^src/',
        pathNot: anyOf([...allowed, ...(layer.typesFrom ? pathsOf(layer.typesFrom) : [])]),
      },
    });
    if (layer.typesFrom) {
      rules.push({
        name: `layer-${name}-types-only`,
        comment: `${name} may import only types from ${layer.typesFrom.join(', ')} (.dependency-cruiser.cjs LAYERS)`,
        severity: 'error',
        from: { path: anyOf(layer.paths), pathNot: '\\.test\\.ts$' },
        to: { path: anyOf(pathsOf(layer.typesFrom)), dependencyTypesNot: ['type-only'] },
      });
    }
  }
  return rules;
}

/** Every module of src/ must belong to a layer, so a new folder cannot slip past the rules. */
const everyModuleHasALayer = {
  name: 'module-outside-layers',
  comment: 'every module of src/ belongs to a layer of .dependency-cruiser.cjs LAYERS; add its folder there',
  severity: 'error',
  from: { path: '^src/', pathNot: anyOf([...Object.values(LAYERS).flatMap((layer) => layer.paths), '\\.test\\.ts$', '^src/harness/shim/fakeCli\\.cjs$']) },
  to: {},
};

/** The same for a module of src/ that imports nothing and is imported by nothing. */
const everyOrphanHasALayer = { ...everyModuleHasALayer, name: 'orphan-outside-layers', from: { ...everyModuleHasALayer.from, orphan: true } };

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycle, type-only imports included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'library-not-into-cli-or-tests',
      comment: 'library code never imports the command, the suites or the probes (DESIGN.md Layout)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli/|index\\.ts$)|\\.test\\.ts$' },
      to: { path: '^(src/cli/|suites/|probes/)' },
    },
    everyModuleHasALayer,
    everyOrphanHasALayer,
    ...layerRules(),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      conditionNames: ['routecert-source', 'import', 'node', 'default', 'types'],
      exportsFields: ['exports'],
      extensions: ['.ts', '.js', '.cjs', '.mjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
