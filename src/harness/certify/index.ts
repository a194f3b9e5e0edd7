/**
 * Certifying any worker: fake CLIs on its PATH replay corpus cases attempt by attempt, the worker
 * runs unchanged through its adapter, and each check compares what it published and logged with
 * the expected verdict.
 */
export { certify, assertCertified, NotCertifiedError } from './certify.ts';
export { defineConfig, loadConfig, CertifyConfigError } from './config.ts';
export { certificateMarkdown, writeCertificate } from './certificate.ts';
export { CHECKS } from './checks.ts';
export { certifyLiveSource } from './liveSource.ts';

export type { CertifyOptions, CertifyOutcome, CertifyProgress } from './certify.ts';
export type { ArtifactAdapter, CertifyConfig, ContractsConfig, LoadedConfig, RoutecertConfig, WorkerAdapter } from './config.ts';
export type { PublishMapping } from './publish.ts';
export type { Certificate, CheckResult, RouteCertificate } from './certificate.ts';
