/**
 * What the stack knows of the spending budget. Money is guarded in the functions, after authentication,
 * by one counter in the upstream's own unit (lib/budget/budget.ts); the gateway limits each client key to
 * its own rate (usage plans, infra/gateway-keys.ts), and only optionally the stage as a whole. (An earlier
 * design divided a per-second budget among the methods at the gateway, where it counted requests before
 * their key was checked, so strangers could exhaust it, and priced a citation search at its worst case.)
 */

/** The counter table's key and TTL attributes: the names lib/budget/counter.ts writes. */
export const BUDGET_TABLE_KEYS = { partitionKey: 'pk', timeToLive: 'expires_at' } as const;

/**
 * What a route that makes paid calls may do on the counter's table (`needs.budget: 'reserve'`):
 * `UpdateItem` (a conditional `ADD` reserves, an unconditional one gives back) and `GetItem` (a refusal
 * reads the other windows to name the one to wait for). No scans, no deletes, no table management.
 */
export const BUDGET_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:UpdateItem'] as const;

/**
 * What a route that only reads the budget may do (`needs.budget: 'read'`, /v1/usage): the operations
 * lib/budget sends to read a window: a consistent `GetItem` (lib/budget/counter.ts), and no action that
 * could change a count. test/infra/iam-matches-code.test.ts runs the real reads against a table and fails
 * when they use an action this list lacks, or no longer need one it holds.
 */
export const BUDGET_READ_ACTIONS = ['dynamodb:GetItem'] as const;

/** Below these a method refuses ordinary use (a burst of 1 serialises every client). */
export const MIN_METHOD_RATE = 1;
export const MIN_METHOD_BURST = 2;

export interface FloodGuard {
  rateLimit: number;
  burstLimit: number;
}

/**
 * The optional stage-wide throttle every method shares, never below the minimums; each part unset when not
 * given (the stage then has the account's limits).
 */
export function floodGuard(ratePerSecond?: number, burst?: number): Partial<FloodGuard> {
  return {
    ...(ratePerSecond === undefined ? {} : { rateLimit: Math.max(MIN_METHOD_RATE, ratePerSecond) }),
    ...(burst === undefined ? {} : { burstLimit: Math.max(MIN_METHOD_BURST, burst) }),
  };
}

/**
 * The cost table: the most paid SerpApi searches one request can make, by route name, before retries and
 * with every cache missed (README, "Spending budget"). Citation search: the scholarly search plus, when a
 * request asks for the index's cite call ("citation_source": "index"), one per paper, and a page holds at
 * most 20 papers (by default a page costs the search alone). Web search alpha: the search, and Google's
 * AI overview fetched with its token when the request asks (`fetch_ai_overview`). Scholar profiles: the
 * search and one profile page per profile filled (`enrich`, at most 10: lib/contract/scholar-profiles.ts
 * ENRICH_MAX, which a test holds equal). Trends: the time series and the regional breakdown. Author
 * citation: the author page and the documents citing the article. Reference check: with "scholar": true,
 * one Google Scholar search per reference no registry confirmed, and a list holds at most 100
 * (CHECK_REFERENCES_MAX; none without it). Crossref lookups
 * (exports, citation resolving, the check's registries) are free, the style catalogue is data, and /v1/usage reads the counter only.
 */
export const PAID_CALLS_PER_REQUEST: Readonly<Record<string, number>> = Object.freeze({
  'web-search-alpha': 1 + 1,
  'web-search-bravo': 1,
  'web-search-charlie': 1,
  'web-search-delta': 1,
  'cite-search': 1 + 20,
  'cite-resolve': 0,
  'cite-check': 100,
  'cite-styles': 0,
  'scholar-profiles': 1 + 10,
  'scholar-author': 1,
  'scholar-author-citation': 2,
  'alpha-trends': 2,
  'alpha-news': 1,
  'alpha-images': 1,
  // A job's routes make no paid search: a job's kind makes its searches in the worker, planned at submit.
  'jobs-submit': 0,
  'jobs-status': 0,
  'jobs-results': 0,
  'jobs-cancel': 0,
  usage: 0,
});
