#!/usr/bin/env node
// `npm run matrix:cases`: writes the contract x route matrix cases (fixtures/cases/contracts/<contract>/<route>/matrix-valid.json)
// from each route's own final-answer envelope (suites/_helpers/matrixCases.ts); run it after re-recording a source case.
import { register as registerHooks } from 'node:module';
import { register } from 'tsx/esm/api';

registerHooks('./source-conditions.js', import.meta.url);
register();
const { writeMatrixCases } = await import('../suites/_helpers/matrixCases.ts');
const written = writeMatrixCases();
process.stdout.write(`matrix: ${written.length} case(s) written under fixtures/cases/contracts/\n`);
