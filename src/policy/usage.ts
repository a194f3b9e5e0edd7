/**
 * Token usage across the turns of one session: every numeric field of whatever usage object a
 * provider reports is summed, deep, and a turn is never counted twice, even when a session is
 * replayed from a saved cursor.
 *
 * Why deep and generic: instructor's usage accumulator summed a fixed list of fields and dropped
 * newer billable ones (567-labs/instructor #2493), and failed attempts went uncounted (#715, #341);
 * shared/research/anchors.md A5 ("deep-sum every numeric usage field generically") and A13 item 7
 * ("every attempt's usage is deep-summed"). DESIGN.md "Contracts in the mission" item 3.
 */
import { isPlainObject } from '#src/envelope/keys.ts';

/**
 * Summed usage: one number per numeric leaf of the usage objects, keyed by its dotted path
 * (`input_tokens`, `cache_creation.ephemeral_5m_input_tokens`, `prompt_tokens_details.cached_tokens`,
 * array items by index: `promptTokensDetails.0.tokenCount`). Units are the provider's (tokens,
 * requests, USD for cost fields).
 */
export type UsageTotals = Record<string, number>;

/**
 * A saved ledger: enough to resume counting without counting a turn twice.
 * - `cursor`: 0-based index of the last turn counted, `-1` when none was;
 * - `turns`: how many turns were counted;
 * - `totals`: see {@link UsageTotals}.
 */
export interface UsageLedgerState {
  cursor: number;
  turns: number;
  totals: UsageTotals;
}

/**
 * The numeric leaves of a usage object, by dotted path, in document order. Strings, booleans and `null` are skipped;
 * non-finite numbers too. A key containing a dot is kept as is (paths are for reading, not parsing).
 * Never throws; a non-object gives `{}`.
 *
 * @example
 * flattenUsage({ input_tokens: 10, service_tier: 'standard', cache_creation: { ephemeral_5m_input_tokens: 2 } })
 * // { input_tokens: 10, 'cache_creation.ephemeral_5m_input_tokens': 2 }
 */
export function flattenUsage(usage: unknown): UsageTotals {
  const out: UsageTotals = {};
  const stack: { value: unknown; path: string }[] = [{ value: usage, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'number') {
      if (path !== '' && Number.isFinite(value)) out[path] = (out[path] ?? 0) + value;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i], path: path === '' ? String(i) : `${path}.${i}` });
    } else if (isPlainObject(value)) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [k, v] = entries[i]!;
        stack.push({ value: v, path: path === '' ? k : `${path}.${k}` });
      }
    }
  }
  return out;
}

/**
 * `a + b`, key by key (a key missing on one side counts as 0). Sums are rounded to 12 significant
 * decimals so that cost fields (`0.1 + 0.2`) read as people expect.
 */
export function addUsage(a: UsageTotals, b: UsageTotals): UsageTotals {
  const out: UsageTotals = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = round((out[k] ?? 0) + v);
  return out;
}

/**
 * A usage ledger for one session. Turns are counted by index: {@link UsageLedger.add} counts turn
 * `n` only when `n` is past the cursor, so replaying turns that were already counted (a retry of the
 * harness, a replay from a saved ledger) leaves the totals unchanged.
 *
 * @example
 * const ledger = new UsageLedger();
 * ledger.add(0, { input_tokens: 100, output_tokens: 20 });
 * const saved = ledger.save();                  // { cursor: 0, turns: 1, totals: {...} }
 * const resumed = UsageLedger.restore(saved);
 * resumed.add(0, { input_tokens: 100 });        // false: turn 0 is already counted
 * resumed.add(1, { input_tokens: 110 });        // true
 * resumed.totals.input_tokens                   // 210
 */
export class UsageLedger {
  #cursor: number;
  #turns: number;
  #totals: UsageTotals;

  constructor(state: UsageLedgerState = { cursor: -1, turns: 0, totals: {} }) {
    this.#cursor = state.cursor;
    this.#turns = state.turns;
    this.#totals = { ...state.totals };
  }

  /** A ledger that resumes from `state` (see {@link UsageLedger.save}). */
  static restore(state: UsageLedgerState): UsageLedger {
    return new UsageLedger(state);
  }

  /** 0-based index of the last turn counted; `-1` when none was. */
  get cursor(): number {
    return this.#cursor;
  }

  /** How many turns were counted. */
  get turns(): number {
    return this.#turns;
  }

  /** The summed usage so far (a copy). */
  get totals(): UsageTotals {
    return { ...this.#totals };
  }

  /**
   * Count turn `turn`'s usage (any provider shape; `undefined` counts the turn with no tokens).
   *
   * @returns `true` when the turn was counted, `false` when it was at or before the cursor.
   * @throws RangeError when `turn` is not a non-negative integer.
   */
  add(turn: number, usage: unknown): boolean {
    if (!Number.isInteger(turn) || turn < 0) throw new RangeError(`[routecert] usage turn must be a non-negative integer, got ${turn}`);
    if (turn <= this.#cursor) return false;
    this.#totals = addUsage(this.#totals, flattenUsage(usage));
    this.#cursor = turn;
    this.#turns += 1;
    return true;
  }

  /** The ledger as plain data, to store with the session and {@link UsageLedger.restore} later. */
  save(): UsageLedgerState {
    return { cursor: this.#cursor, turns: this.#turns, totals: { ...this.#totals } };
  }
}

function round(n: number): number {
  return Number.isInteger(n) ? n : Number.parseFloat(n.toPrecision(12));
}
