/** The tests' guard against a budget window ending mid-test (test/support/window-edges.ts). */
import { describe, expect, it } from 'vitest';
import { clearOfWindowEdges, HOUR_MS, msToHourEnd } from '../../support/window-edges.js';

const at = (iso: string) => Date.parse(iso);

describe('clearOfWindowEdges', () => {
  it('measures what is left of the hour by the clock', () => {
    expect(msToHourEnd(at('2026-11-26T20:59:30.000Z'))).toBe(30_000);
    expect(msToHourEnd(at('2026-11-26T21:00:00.000Z'))).toBe(HOUR_MS);
  });

  it('waits past the hour when it ends within the margin, and not otherwise', async () => {
    const slept: number[] = [];
    const sleep = async (ms: number) => {
      slept.push(ms);
    };
    await clearOfWindowEdges(60_000, () => at('2026-11-26T20:59:30.000Z'), sleep);
    expect(slept).toEqual([30_050]);
    await clearOfWindowEdges(60_000, () => at('2026-11-26T20:58:59.000Z'), sleep);
    await clearOfWindowEdges(60_000, () => at('2026-11-26T21:00:00.000Z'), sleep);
    expect(slept).toEqual([30_050]);
  });

  it('waits into the next day and month as into any hour', async () => {
    const slept: number[] = [];
    await clearOfWindowEdges(
      60_000,
      () => at('2026-11-30T23:59:45.000Z'),
      async (ms) => {
        slept.push(ms);
      },
    );
    expect(new Date(at('2026-11-30T23:59:45.000Z') + (slept[0] ?? 0)).toISOString()).toBe('2026-12-01T00:00:00.050Z');
  });
});
