/**
 * Certifying any worker: fake CLIs on its PATH replay corpus cases attempt by attempt, the worker
 * runs unchanged through its adapter, and each check compares what it published and logged with
 * the expected verdict.
 */
export { certify, assertCertified, NotCertifiedError, DEFAULT_CERTIFY_PROMPT, DEFAULT_FINAL_ANSWER_MARKER } from './certify.ts';
export { defineConfig, loadConfig, configProblems, fillTemplate, artifactAdapter, CertifyConfigError, PLACEHOLDERS } from './config.ts';
export { meaningDifferences, describeDifferences, comparedProperties } from './meaning.ts';
export { POV_DEFINITION, rulesOf, isContractDefinition } from './rules.ts';
export { certificateMarkdown, certificateProblems, writeCertificate, CERTIFICATE_VERSION } from './certificate.ts';
export { CHECKS, DEFAULT_RUN_WINDOWS, OUTER_GRACE_MS, smokeCases } from './checks.ts';
export { FORBIDDEN_FLAGS, FORBIDDEN_SUBSTRINGS, forbiddenFlagsOf } from './argvChecks.ts';
export { certifyLiveSource, certifyCaseId } from './liveSource.ts';
export { certifyRoute, UnknownCertifyRouteError } from './routes.ts';
export { executeRun, FAKE_SECRETS } from './execute.ts';
export { caseLabel, caseSlug, chunked, findCase, findCases, longStderr, replayOf, tieAttempt } from './cases.ts';
export { isAlive, groupMembers, waitGone, waitGroupsGone, killGroup } from './processes.ts';
export { referenceWorkerConfig, inProcessRunner, REFERENCE_ROUTES, REFERENCE_COMMAND } from './reference.ts';
export { miniatureConfig, MINIATURES } from './miniatures/index.ts';

export type { CertifyOptions, CertifyOutcome, CertifyProgress } from './certify.ts';
export type { ArtifactAdapter, CertifyConfig, ContractsConfig, InProcessInvocation, LoadedConfig, Placeholder, RoutecertConfig, WorkerAdapter } from './config.ts';
export type { MeaningDifference } from './meaning.ts';
export type { CertifiedRules } from './rules.ts';
export type { Certificate, CheckResult, RouteCertificate } from './certificate.ts';
export type { CheckDefinition, CheckEnv, CheckJudgement, CheckPlan, JudgedRun, PlannedRun } from './checks.ts';
export type { CertifyRoute } from './routes.ts';
export type { Leftover, RunContext, RunInput, RunObservation, RunWindows } from './execute.ts';
export type { CaseQuery } from './cases.ts';
export type { TrackedProcess } from './processes.ts';
export type { MiniatureName } from './miniatures/index.ts';
