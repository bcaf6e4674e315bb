/**
 * One spending budget, stated once: the paid upstream calls per second a team is willing to pay for
 * (`-c upstreamCallsPerSecond=N`). API Gateway throttles each method on its own, so a single stage-wide
 * rate would let every method spend it again (11 methods at 10 requests a second each, and a citation
 * search alone can make 21 paid calls). Instead every POST method gets an equal share of the budget in
 * paid calls, divided by the most paid calls one of its requests can make: the methods' rates, each
 * multiplied by its calls per request, add up to the budget.
 */
import type { Route } from '../lib/routes.js';

/**
 * The most paid upstream calls (SerpApi searches) one request can make, by route name, before
 * retries and with every cache missed. Citation search: the scholarly search plus one cite lookup per
 * paper, and a page holds at most 20 papers (its `results` field). Trends: the time series and the
 * regional breakdown. Author citation: the author page and the documents citing the article. Crossref
 * lookups (citation search exports) are free and keyless, so they do not count.
 */
export const PAID_CALLS_PER_REQUEST: Readonly<Record<string, number>> = Object.freeze({
  'web-search-alpha': 1,
  'web-search-bravo': 1,
  'web-search-charlie': 1,
  'web-search-delta': 1,
  'cite-search': 1 + 20,
  'scholar-profiles': 1,
  'scholar-author': 1,
  'scholar-author-citation': 2,
  'alpha-trends': 2,
  'alpha-news': 1,
  'alpha-images': 1,
});

export interface MethodThrottle {
  route: Route;
  /** Most paid calls one request makes. */
  paidCallsPerRequest: number;
  /** Steady requests per second the method accepts before 429 (API Gateway takes a fraction). */
  rateLimit: number;
  /** Requests accepted at once above the rate: whole, and at least 1, or the method would refuse everything. */
  burstLimit: number;
}

// Rates are rounded down to this many decimals: the template stays readable and the sum never exceeds the budget.
const RATE_DECIMALS = 4;

/** Paid calls one route's request can make; a route missing from the table fails the synth. */
export function paidCallsPerRequest(route: Route): number {
  const calls = PAID_CALLS_PER_REQUEST[route.name];
  if (calls === undefined) throw new Error(`infra/budget.ts: no paid-call count for route ${route.name}`);
  return calls;
}

/**
 * Each method's throttle for a budget of `upstreamCallsPerSecond`: an equal share of the budget per
 * method, in paid calls, so rate × calls per request is the same for every method and their sum is the
 * budget. The burst is two seconds of the method's rate, rounded up, at least one request.
 */
export function methodThrottles(upstreamCallsPerSecond: number, routes: readonly Route[]): MethodThrottle[] {
  const share = upstreamCallsPerSecond / routes.length;
  const scale = 10 ** RATE_DECIMALS;
  return routes.map((route) => {
    const calls = paidCallsPerRequest(route);
    const rateLimit = Math.floor((share / calls) * scale) / scale;
    return { route, paidCallsPerRequest: calls, rateLimit, burstLimit: Math.max(1, Math.ceil(2 * rateLimit)) };
  });
}

/** Paid calls per second the throttles allow at most, steady (≤ the budget) and in one burst. */
export function throttleCeiling(throttles: readonly MethodThrottle[]): { steady: number; burst: number } {
  return {
    steady: throttles.reduce((sum, t) => sum + t.rateLimit * t.paidCallsPerRequest, 0),
    burst: throttles.reduce((sum, t) => sum + t.burstLimit * t.paidCallsPerRequest, 0),
  };
}
