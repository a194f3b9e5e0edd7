import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOWS, windowsFromEnv, WorkerUsageError } from './windows.ts';

describe('windowsFromEnv', () => {
  it('takes ce-pov defaults when nothing is set', () => {
    expect(windowsFromEnv({})).toEqual(DEFAULT_WINDOWS);
  });

  it('reads seconds (fractions allowed) and turns idle detection off with 0', () => {
    expect(windowsFromEnv({ ROUTECERT_HARD_S: '2.5', ROUTECERT_IDLE_S: '0', ROUTECERT_RETRY_MIN_S: '1' })).toEqual({ hardWindowS: 2.5, idleWindowS: null, retryMinS: 1 });
  });

  it('refuses a value that is not a number of seconds, naming the variable', () => {
    expect(() => windowsFromEnv({ ROUTECERT_HARD_S: '10s' })).toThrow(WorkerUsageError);
    expect(() => windowsFromEnv({ ROUTECERT_HARD_S: '0' })).toThrow(/ROUTECERT_HARD_S="0" is not a positive number/);
    expect(() => windowsFromEnv({ ROUTECERT_RETRY_MIN_S: '-1' })).toThrow(/ROUTECERT_RETRY_MIN_S/);
  });
});
