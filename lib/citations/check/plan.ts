/**
 * The pace a reference check needs, planned before anything is sent: how many requests each source gets at
 * most, and how long their starts take at the source's pace (sources/pace.ts). A list whose registry
 * lookups cannot all start within the request's time is refused whole, saying how many references fit,
 * rather than answered with references never sent that say they were; DataCite, asked only for what
 * Crossref does not have, gets what time is left, and a reference it cannot reach says DataCite was not
 * asked, and why. Pure arithmetic on the rates: the sources' paces keep the real starts.
 */
import { rateWindow } from '../sources/pace.js';

/** How long `n` starts take at `perSecond`, the first at once: whole windows of the rate's starts. */
export function startsTakeMs(n: number, perSecond: number): number {
  if (n <= 0) return 0;
  const { limit, ms } = rateWindow(perSecond);
  return Math.floor((n - 1) / limit) * ms;
}

/** How many starts fit in `availableMs` at `perSecond` (the first at once). */
export function startsWithin(availableMs: number, perSecond: number): number {
  if (availableMs < 0) return 0;
  const { limit, ms } = rateWindow(perSecond);
  return (Math.floor(availableMs / ms) + 1) * limit;
}
