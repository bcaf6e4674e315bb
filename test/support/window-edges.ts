/**
 * The budget counts in wall-clock windows (the deployment's hour and month, a key's UTC day), and the
 * tests that run the service read them as the service does, by the clock. A test that compares counts
 * across requests would fail if a window ended between them (a run crossing the hour sees the new hour
 * at 0). Called before such a test: when the current hour ends within `marginMs`, it waits until the next
 * one has begun (a day and a month end with an hour), so that the test runs inside one window of each.
 */
export const HOUR_MS = 3_600_000;

export function msToHourEnd(now: number): number {
  return HOUR_MS - (now % HOUR_MS);
}

export async function clearOfWindowEdges(
  marginMs = 60_000,
  now: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  const left = msToHourEnd(now());
  // 50 ms past the edge: the service's clock and this one are the same machine's.
  if (left < marginMs) await sleep(left + 50);
}
