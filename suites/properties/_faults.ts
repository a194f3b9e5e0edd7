/**
 * Deliberately faulty decoders and contracts (bowtie's miniatures, STYLE.md item 13): each property
 * suite proves it can fail by catching one of these.
 */
import { defaultDecoders, withDecoders } from '#src/routes/registry.ts';
import { foldKey, isPlainObject } from '#src/envelope/keys.ts';
import type { Decoded, RouteDecoder } from '#src/envelope/types.ts';
import type { Contract } from '#src/contract/types.ts';
import { propertyEnv } from '#src/properties/env.ts';
import type { PropertyEnv } from '#src/properties/types.ts';

/** routecert's decoder for `route`, with its reading changed by `change`. */
export function wrapDecoder(route: string, header: string, change: (decoded: Decoded) => Decoded): RouteDecoder {
  const base = defaultDecoders().find((d) => d.route === route);
  if (!base) throw new Error(`no decoder for ${route}`);
  return { ...base, header, decode: (envelope, options) => change(base.decode(envelope, options)) };
}

/** Keep only the candidates `keep` accepts (and the structured candidate only if kept). */
export function keepCandidates(decoded: Decoded, keep: (c: Decoded['candidates'][number]) => boolean): Decoded {
  const candidates = decoded.candidates.filter(keep);
  const out: Decoded = { ...decoded, candidates };
  if (decoded.structured && !candidates.includes(decoded.structured)) delete out.structured;
  return out;
}

/** Reads the structured field only when it is spelled exactly `structured_output` (the done-when fault). */
export function structuredOutputOnly(route: string): RouteDecoder {
  return wrapDecoder(route, `${route} reading only structured_output`, (d) =>
    keepCandidates(d, (c) => !(foldKey(c.origin) === 'structuredoutput' && c.origin !== 'structured_output')),
  );
}

/** An env whose decoders for every route of routecert are changed by `change` (prepended, as `withDecoders` does). */
export async function faultyEnv(header: string, change: (decoded: Decoded) => Decoded): Promise<PropertyEnv> {
  const routes = [...new Set(defaultDecoders().map((d) => d.route))];
  return propertyEnv({ decoders: withDecoders(routes.map((r) => wrapDecoder(r, header, change))) });
}

/** Never sees JSON inside Markdown fences. */
export const ignoresFences = (d: Decoded) => keepCandidates(d, (c) => c.fenced !== true);

/** The first object bearing `position` wins: a placeholder before the final answer displaces it. */
export const firstCandidateWins = (d: Decoded) => {
  const first = d.candidates.find((c) => isPlainObject(c.value) && Object.hasOwn(c.value, 'position'));
  return keepCandidates(d, (c) => c === first);
};

/** Reads a missing `final` as true (fails open instead of closed). */
export const missingFinalIsFinal = (d: Decoded) => ({
  ...d,
  candidates: d.candidates.map((c) => (isPlainObject(c.value) && !Object.hasOwn(c.value, 'final') ? { ...c, value: { ...c.value, final: true } } : c)),
});

/** De-duplicates with a bare JSON.stringify, which overflows the stack on deep nesting. */
export const rawDedupe = (d: Decoded) => {
  for (const c of d.candidates) JSON.stringify(c.value);
  return d;
};

/** Copies the candidates with `push(...list)`, which overflows the stack past about 120,000 (issue 15). */
export const spreadCandidates = (d: Decoded) => {
  const copy: Decoded['candidates'] = [];
  // The fault under test: a spread call (src/spreads.test.ts forbids it in src/, not here).
  // eslint-disable-next-line no-restricted-syntax -- the fault under test
  copy.push(...d.candidates);
  return { ...d, candidates: copy };
};

/**
 * The pov contract with the stderr evidence cut the way `${x: -300}` cut it in bash 3.2 (a message
 * shorter than 300 characters vanished: EveryInc/compound-engineering-plugin PR #1153).
 */
export function tailCutStderr(contract: Contract): Contract {
  const prefix = 'peer skip evidence (stderr): ';
  return {
    ...contract,
    judge: (decoded, context) => {
      const v = contract.judge(decoded, context);
      return { ...v, evidence: v.evidence.map((line) => (line.startsWith(prefix) && line.length - prefix.length < 300 ? prefix : line)) };
    },
  };
}
