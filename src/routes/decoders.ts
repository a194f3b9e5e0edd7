/**
 * The route decoders the package entry exports (src/index.ts), and the registry that picks one by
 * route id (src/routes/registry.ts). Each decoder lives in its CLI's folder
 * (src/routes/<cli>/decoder.ts) and is the only code that reads that CLI's output.
 */
export { claudeDecoder } from './claude/decoder.ts';
export { codexDecoder } from './codex/decoder.ts';
export { genericDecoder, genericRouteDecoder, genericDecoderFromOption, parseGenericSpec, GenericSpecError } from './generic/decoder.ts';
export { defaultDecoders, withDecoders, decoderFor, UnknownRouteError } from './registry.ts';

export type { GenericDecoderOptions, EventFilter } from './generic/decoder.ts';
