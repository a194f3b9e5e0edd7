/**
 * routecert's public API (the package entry, `import { ... } from 'routecert'`): decoders,
 * contracts, evidence, the conformance run, certification of any worker, and the reference worker.
 * Values first, then types, grouped by topic (STYLE.md item 3).
 */
// Envelopes and decoders
export { claudeDecoder, genericDecoder, defaultDecoders, withDecoders, decoderFor, UnknownRouteError } from '#src/routes/decoders.ts';
// The generic route: where a CLI routecert does not know leaves its answer (`generic:<spec>`, `run --generic`)
export { parseGenericSpec, genericDecoderFromOption, genericRouteDecoder, GenericSpecError } from '#src/routes/decoders.ts';
// Route definitions: every fact about each CLI, declared once (src/routes/<cli>/route.ts)
export { defineRoute, ROUTE_DEFINITIONS, FRAMINGS, definitionFor, routeSpecFor, RouteDefinitionError } from '#src/routes/index.ts';
// Envelope drift between a recorded case and a probe of a newer CLI
export { driftLines } from '#src/harness/drift.ts';
// Scanning free text for JSON
export { findJsonObjects, scanJson } from '#src/scan/index.ts';
// Contracts and verdicts
export { VERDICTS, povContract, DEFAULT_POV_POLICY, FINAL_ANSWER_ADDENDUM, loadContract, judgeCase } from '#src/contract/index.ts';
export { defineContract, definitionProblems, ContractDefinitionError, presetContract, presetDefinition, PRESET_NAMES } from '#src/contract/index.ts';
export { loadProjectConfig, configFor } from '#src/config/project.ts';
export { CONFIG_FILE_NAMES } from '#src/config/fileNames.ts';
export { initProject } from '#src/config/init.ts';
// Bounded evidence
export { clipEvidence, boundedEvidence, EVIDENCE_LIMIT_CHARS } from '#src/diagnostics/evidence.ts';
// The conformance run
export { runConformance } from '#src/harness/run.ts';
// CI at scale: shards, merging shard reports, comparing two reports
export { parseShard, shardOf, inShard, ShardSpecError } from '#src/harness/shard.ts';
export { mergeReports, MergeReportsError } from '#src/harness/mergeReports.ts';
export { readReport, InvalidReportError } from '#src/harness/readReport.ts';
export { diffReports, diffText } from '#src/report/diff.ts';
// Reporters (plug-ins): the built-in ones by name, and each factory
export {
  createReporter,
  createReporters,
  defaultReporterNames,
  REPORTER_NAMES,
  consoleReporter,
  dotReporter,
  jsonReporter,
  junitReporter,
  junitXml,
  markdownReporter,
  markdownSummary,
  htmlReporter,
  htmlReport,
  githubReporter,
  githubAnnotations,
  progressReporter,
} from '#src/report/index.ts';
// Certification of any worker
export {
  certify,
  assertCertified,
  NotCertifiedError,
  defineConfig,
  loadConfig,
  CertifyConfigError,
  certifyLiveSource,
  writeCertificate,
  certificateMarkdown,
  CHECKS,
} from '#src/harness/certify/index.ts';
// Fake CLI shims
export { installShims, readShimRecords, promptOf } from '#src/harness/shim/index.ts';
// The reference worker
export { runWorker, runPeer, windowsFromEnv, WORKER_ROUTES, WINDOW_ENV } from '#src/worker/index.ts';
// Property-based testing: envelope generators with ground truth, properties, replay and regressions
export {
  routeEnvelope,
  claudeJsonEnvelope,
  claudeStreamEnvelope,
  grokJsonEnvelope,
  cursorStreamEnvelope,
  freeTextEnvelope,
  povAnswer,
  schemaPayload,
  stderrText,
  hostileStdout,
} from '#src/arbitraries/index.ts';
export { PROPERTIES, propertyByName, propertyEnv, checkProperty, assertProperty, saveRegression } from '#src/properties/index.ts';

// Envelopes and decoders
export type { Candidate, Decoded, DecodeOptions, Envelope, EnvelopeStatus, Origin, RouteDecoder } from '#src/envelope/index.ts';
export type { GenericDecoderOptions, EventFilter } from '#src/routes/decoders.ts';
export type { Framing, RouteDefinition, RouteFormatSpec, RouteSpec, SchemaFlagSpec, VersionSpec, ProbeHooks, ProbeSpec } from '#src/routes/index.ts';
export type { DriftInput, DriftSide } from '#src/harness/drift.ts';
// Contracts and verdicts
export type { Contract, Verdict, VerdictName, PovContract, PovPolicy } from '#src/contract/index.ts';
export type { ContractDefinition, ContractExtensions, DefinedContract, NormalizedContractDefinition, ReplyCodec } from '#src/contract/index.ts';
export type { ProjectConfig } from '#src/config/project.ts';
// The conformance run
export type { LiveSource, RunOptions } from '#src/harness/run.ts';
export type { CaseResult, CaseOutcome, RunFault, RunSummary, CliStatus, RunReport } from '#src/report/types.ts';
export type { Reporter, BuiltinReporterName, ReporterContext, OutputOptions, ProgressReporter, ReportDiff, CaseChange } from '#src/report/index.ts';
export type { Shard } from '#src/harness/shard.ts';
export type { ReportSource } from '#src/harness/mergeReports.ts';
// Certification
export type {
  ArtifactAdapter,
  Certificate,
  CertifyConfig,
  RoutecertConfig,
  ContractsConfig,
  CertifyOptions,
  CertifyOutcome,
  CertifyProgress,
  CheckResult,
  LoadedConfig,
  PublishMapping,
  RouteCertificate,
  WorkerAdapter,
} from '#src/harness/certify/index.ts';
export type { ShimAttempt, ShimCallRecord, ShimPlan, ShimRecord } from '#src/harness/shim/index.ts';
// The reference worker
export type { WorkerOptions, WorkerResult, WorkerWindows } from '#src/worker/index.ts';
// Property-based testing
export type { EnvelopeConstraints, EnvelopePlan, Expected, GeneratedEnvelope, PovAnswer } from '#src/arbitraries/index.ts';
export type { AnyProperty, CheckOptions, PropertyEnv, PropertyRun, RoutecertProperty } from '#src/properties/index.ts';

// A compiled config's `import ... from 'routecert'` gets this very module (harness/certify/configFile.ts).
import { providePackageModule } from '#src/harness/certify/configFile.ts';
providePackageModule(() => import(import.meta.url));
// Every output hides the credential values the routes declare (diagnostics/redact.ts).
import { hideSecretsFrom } from '#src/diagnostics/redact.ts';
import { liveSecrets } from '#src/probe/live.ts';
hideSecretsFrom(liveSecrets);
