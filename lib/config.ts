import * as z from 'zod/mini';
import { JOB_BATCH_SIZE_DEFAULT, JOB_TTL_DAYS_DEFAULT } from './contract/jobs.js';
import { isRealSerpApi } from './credentials/sources.js';
import { ROUTES } from './routes.js';

/** A whole number from an environment string, with a default and bounds. */
function intVar(fallback: number, min: number, max: number) {
  return z._default(
    z.pipe(
      z.string().check(z.regex(/^\d+$/, { error: 'must be a whole number' })),
      z.transform(Number).check(z.gte(min), z.lte(max)),
    ),
    fallback,
  );
}

const optionalText = z.optional(z.string().check(z.trim(), z.minLength(1)));

/** A rate in requests per second, from an environment string: a number above 0 and at most 1,000. */
function rateVar() {
  return z.pipe(
    z.string().check(z.regex(/^\d+(?:\.\d+)?$/, { error: 'must be a number of requests per second, such as 5 or 1.5' })),
    z.transform(Number).check(z.gt(0, { error: 'must be above 0' }), z.lte(1_000)),
  );
}

/** Seconds from an environment string, fractions allowed (the tests wait milliseconds), with a default and bounds. */
function secondsVar(fallback: number, min: number, max: number) {
  return z._default(
    z.pipe(
      z.string().check(z.regex(/^\d+(?:\.\d+)?$/, { error: 'must be a number of seconds, such as 10 or 0.5' })),
      z.transform(Number).check(z.gte(min), z.lte(max)),
    ),
    fallback,
  );
}

const ENDPOINT_NAMES = new Set(ROUTES.map((route) => route.name));

/** "alpha-news=600,alpha-trends=0" → { 'alpha-news': 600, 'alpha-trends': 0 }; names must be routes. */
const ttlByEndpoint = z.pipe(
  z.string().check(
    z.refine(
      (text) =>
        text.trim() === '' ||
        text.split(',').every((pair) => {
          const match = /^\s*([a-z0-9-]+)\s*=\s*(\d{1,7})\s*$/.exec(pair);
          return match !== null && ENDPOINT_NAMES.has(match[1] as string);
        }),
      { error: `must be name=seconds pairs separated by commas; names: ${[...ENDPOINT_NAMES].join(', ')}` },
    ),
  ),
  z.transform((text) => {
    const ttls: Record<string, number> = {};
    for (const pair of text.split(',')) {
      const [name, seconds] = pair.split('=').map((part) => part.trim());
      if (name && seconds) ttls[name] = Number(seconds);
    }
    return ttls;
  }),
);

// A key sent to SerpApi itself is a SerpApi key: 64 hexadecimal characters.
const SERPAPI_KEY_FORM = /^[0-9a-f]{64}$/i;

/** Why a plain upstream key cannot be SerpApi's, without quoting it (it is a secret). */
function serpApiKeyProblem(key: string): string {
  return `must be a SerpApi API key, 64 hexadecimal characters (0-9, a-f) as shown at https://serpapi.com/manage-api-key; the one set has ${key.length} characters${/^[0-9a-f]*$/i.test(key) ? '' : ', not all of them hexadecimal'}`;
}

const configSchema = z
  .object({
    SERPAPI_BASE_URL: z._default(z.url({ protocol: /^https?$/ }), 'https://serpapi.com'),
    /** Locally, the upstream key itself; where deployed, SERPAPI_SECRET_ID names the secret that holds it. */
    SERPAPI_API_KEY: optionalText,
    SERPAPI_SECRET_ID: optionalText,
    /**
     * "true" in a function that makes no paid call and may not read the SerpApi key: the free routes and the
     * gateway's authorizer, whose roles cannot read that secret (lib/routes.ts, `needs.upstreamKey`). Neither
     * SERPAPI_API_KEY nor SERPAPI_SECRET_ID may then be set, and nothing loads the key.
     */
    NO_UPSTREAM_KEY: z._default(z.enum(['true', 'false']), 'false'),
    /** Locally, comma-separated plain client keys; where deployed, CLIENT_KEYS_SECRET_ID holds their digests. */
    API_KEYS: optionalText,
    CLIENT_KEYS_SECRET_ID: optionalText,
    SECRETS_TTL_SECONDS: intVar(300, 0, 86_400),
    /**
     * One secret read, every attempt included; a request also never waits past its own deadline. A read
     * that took longer would be answered SERVICE_MISCONFIGURED, never with a value read before.
     */
    SECRETS_TIMEOUT_MS: intVar(3_000, 100, 28_000),
    /** One upstream attempt. */
    UPSTREAM_TIMEOUT_MS: intVar(10_000, 50, 28_000),
    /** Everything a request does must finish within this, well below API Gateway's 29 s. */
    REQUEST_DEADLINE_MS: intVar(25_000, 100, 28_000),
    UPSTREAM_RETRIES: intVar(2, 0, 2),
    RETRY_BASE_DELAY_MS: intVar(200, 0, 5_000),
    /** A Retry-After longer than this is not waited for; the client gets it instead. */
    MAX_RETRY_AFTER_MS: intVar(3_000, 0, 20_000),
    /** Citation search: cite calls in flight at once; 20 lets a full page of papers take one round trip. */
    CITE_CONCURRENCY: intVar(20, 1, 50),
    /** Citation search: one cite attempt; a paper whose cite is slower is shown without citations. */
    CITE_TIMEOUT_MS: intVar(6_000, 50, 28_000),
    CITE_RETRIES: intVar(1, 0, 2),
    /**
     * The index's cite engine answers empty since August 2026 (docs/decisions.md §26): after this many empty
     * answers in a row a container stops asking it for CITE_EMPTY_REST_SECONDS (0: never stops).
     */
    CITE_EMPTY_LIMIT: intVar(3, 1, 100),
    CITE_EMPTY_REST_SECONDS: intVar(3_600, 0, 86_400),
    /** A paper's citations never change: kept 30 days (entries in this container's memory; seconds, 0 turns it off). */
    CITE_CACHE_MAX: intVar(2_000, 0, 100_000),
    CITE_CACHE_TTL_SECONDS: intVar(2_592_000, 0, 31_536_000),
    /** Upstream answers (search pages of every endpoint) kept in this container's memory; 0 keeps none there. */
    SEARCH_CACHE_MAX: intVar(200, 0, 10_000),
    /** Every endpoint's upstream answers change slowly: kept this long (seconds; 0 turns it off). */
    ANSWER_CACHE_TTL_SECONDS: intVar(3_600, 0, 604_800),
    /** Exceptions per endpoint, by route name: "alpha-news=600,alpha-trends=0". */
    ANSWER_CACHE_TTL_BY_ENDPOINT: z._default(ttlByEndpoint, {}),
    /** The shared cache every container sees (a DynamoDB table); unset, the caches are memory only. */
    CACHE_TABLE_NAME: optionalText,
    /**
     * Prefix of every key this function reads or writes in the shared table: its route's own
     * (lib/routes.ts, cacheKeyPrefix), the only keys its role may write. Empty locally.
     */
    CACHE_KEY_PREFIX: z._default(z.string().check(z.regex(/^([a-z0-9-]+\/)?$/, { error: 'must be a route name and "/"' })), ''),
    /**
     * A table read slower than this is abandoned and the upstream asked instead. At most a request's
     * default deadline: a test on a machine far busier than Lambda gives a table that answers all the
     * time it may need, so that its verdict never depends on the machine's speed.
     */
    CACHE_READ_TIMEOUT_MS: intVar(150, 10, 25_000),
    /** Writing new answers to the table may hold a response back at most this long. */
    CACHE_WRITE_TIMEOUT_MS: intVar(300, 10, 25_000),
    /**
     * At cold start, the longest the tables' first connection (SDK set-up, credentials, TLS) may take before
     * the container serves requests; it is spent once, outside every request's budget.
     */
    TABLE_PREPARE_TIMEOUT_MS: intVar(2_000, 0, 10_000),
    /**
     * How often a request waiting for another container's upstream call of the same question (a claim in
     * the shared table) reads the table for its answer.
     */
    CACHE_WAIT_POLL_MS: intVar(100, 10, 5_000),
    /** After 3 table failures in a row the table is left alone this long, so an outage costs no read time. */
    CACHE_TABLE_COOLDOWN_MS: intVar(10_000, 0, 600_000),
    /**
     * The spending budget, in the upstream's own unit (one SerpApi search = one paid call; cache hits and
     * Crossref are free), shared by every endpoint, client and container (README, "Spending budget").
     */
    SEARCHES_PER_HOUR: intVar(250, 1, 10_000_000),
    /** Searches in a calendar month (UTC); 0: no monthly cap besides the hourly one. */
    SEARCHES_PER_MONTH: intVar(5_000, 0, 1_000_000_000),
    /** The counter's DynamoDB table; unset, each process counts in its own memory (the local server). */
    BUDGET_TABLE_NAME: optionalText,
    /**
     * One counter call; one without an answer by then is sent once more with the same token, then treated as
     * a counter failure (fail open, or refuse if fail-closed). 1 s: over twice the slowest call measured on a
     * busy 2-core host (docs/budget-and-caching.md); a late answer costs a second attempt, never a wrong count.
     */
    BUDGET_TIMEOUT_MS: intVar(1_000, 10, 5_000),
    /**
     * The longest one counter call is given when the table has been answering slowly: each call's time is
     * twice the 99th percentile of the last answers' latencies, between BUDGET_TIMEOUT_MS and this
     * (docs/budget-and-caching.md, "Why these timeouts").
     */
    BUDGET_TIMEOUT_MAX_MS: intVar(5_000, 10, 20_000),
    /**
     * After the counter failed to answer, how long the container leaves it alone (requests fail open or are
     * refused at once, Retry-After saying so) before it tries again and writes what it owes.
     */
    BUDGET_RETRY_MS: intVar(2_000, 10, 600_000),
    /**
     * "true": the citation styles are built while the container starts, not on its first citation search
     * (lib/citations/render/render.ts says why). The stack sets it for the cite-search function alone.
     */
    CITATION_STYLES_AT_INIT: z._default(z.enum(['true', 'false']), 'false'),
    /**
     * The CSL style pack's folder, an absolute path: where deployed, the pack's Lambda layer under /opt
     * (infra/style-pack-layer.ts sets it for the functions that read it). Unset: the pack in the repository,
     * beside lib/citations/render/style-catalogue.ts (the local server and the tests).
     */
    STYLE_PACK_DIR: z.optional(
      z.string().check(z.regex(/^\//, { error: 'must be an absolute path, such as /opt/csl-style-pack' })),
    ),
    /** "true": while the counter cannot be reached, refuse paid searches (503) instead of searching uncounted. */
    BUDGET_FAIL_CLOSED: z._default(z.enum(['true', 'false']), 'false'),
    /**
     * While the counter cannot be reached (fail open), one container makes at most this many paid searches
     * an hour; unset: a tenth of SEARCHES_PER_HOUR, at least 1.
     */
    BUDGET_BACKSTOP_PER_HOUR: z.optional(
      z.pipe(
        z.string().check(z.regex(/^\d+$/, { error: 'must be a whole number' })),
        z.transform(Number).check(z.gte(1), z.lte(10_000_000)),
      ),
    ),
    /** How long the plan's numbers read from SerpApi's free Account API are kept (seconds; 0: never read). */
    ACCOUNT_API_TTL_SECONDS: intVar(600, 0, 86_400),
    /** Citation search exports: Crossref's REST API, free and keyless, asked only when a request wants exports. */
    CROSSREF_BASE_URL: z._default(z.url({ protocol: /^https?$/ }), 'https://api.crossref.org'),
    /**
     * A contact address sent as `mailto` (and in the User-Agent) to Crossref and DataCite: it puts the lookups
     * in Crossref's polite pool and DataCite's "identified" tier, whose limits are twice the anonymous ones.
     */
    CROSSREF_MAILTO: z.optional(z.email({ error: 'must be an email address' })),
    /**
     * Crossref lookups this container starts per second, whatever the requests (docs/citations.md, "Pace"):
     * unset, 5 without CROSSREF_MAILTO and 10 with it, Crossref's public and polite limits since December 2025.
     */
    CROSSREF_REQUESTS_PER_SECOND: z.optional(rateVar()),
    /**
     * Crossref lookups in flight at once for the whole deployment (its concurrency limit): unset, 1 without
     * CROSSREF_MAILTO and 5 with it, Crossref's public and polite limits, or what its answers state if stricter.
     */
    CROSSREF_IN_FLIGHT: z.optional(
      z.pipe(
        z.string().check(z.regex(/^\d+$/, { error: 'must be a whole number' })),
        z.transform(Number).check(z.gte(1), z.lte(50)),
      ),
    ),
    /** DataCite's REST API (free, no key): DOIs Crossref does not know, arXiv's and most datasets'. */
    DATACITE_BASE_URL: z._default(z.url({ protocol: /^https?$/ }), 'https://api.datacite.org'),
    /**
     * DataCite lookups this container starts per second: unset, 1.5 without a contact address and 3 with
     * CROSSREF_MAILTO (DataCite allows 500 and 1,000 requests per 5 minutes per IP address).
     */
    DATACITE_REQUESTS_PER_SECOND: z.optional(rateVar()),
    /**
     * "true" only in the demo (`npm start` without an upstream key, lib/local/main.ts): Crossref and DataCite
     * are loopback replays of recorded answers, so a DOI or reference they hold nothing for is answered "the
     * demo holds no recording of …", never as a claim about Crossref or DataCite.
     */
    DEMO_REPLAY: z._default(z.enum(['true', 'false']), 'false'),
    /**
     * The deployment's pace table (lib/pace/): where every container takes its turns for Crossref and DataCite,
     * so that together they keep each source's published rate. Unset: each process keeps the pace alone.
     */
    PACE_TABLE_NAME: optionalText,
    /** One pace table call; a slower one makes the container keep the pace alone for PACE_RETRY_MS. */
    PACE_TIMEOUT_MS: intVar(500, 10, 28_000),
    /** How long a container keeps the pace alone (in its memory) once the pace table did not answer. */
    PACE_RETRY_MS: intVar(10_000, 100, 600_000),
    /** How often a lookup waiting for a room in flight (the source's concurrency limit) reads the pace again. */
    PACE_POLL_MS: intVar(50, 5, 1_000),
    /** One Crossref lookup; a slower paper keeps `doi: null` and exports built from the index's data. */
    CROSSREF_TIMEOUT_MS: intVar(4_000, 50, 28_000),
    /** Lookups in flight at once, per request: Crossref limits how many one client may have open, so keep it low. */
    CROSSREF_CONCURRENCY: intVar(3, 1, 20),
    /** All of a request's lookups end this long after they start: a slow Crossref must not hold the answer to the deadline. */
    CROSSREF_BUDGET_MS: intVar(8_000, 100, 28_000),
    /** A paper's matched record never changes: kept like its citations (entries; seconds, 0 turns it off). */
    CROSSREF_CACHE_MAX: intVar(2_000, 0, 100_000),
    CROSSREF_CACHE_TTL_SECONDS: intVar(2_592_000, 0, 31_536_000),
    /**
     * Jobs (docs/decisions.md §27). Deployed: the DynamoDB table jobs live in and the S3 bucket for values too
     * large for its items, and the SQS queue of their batches. Unset: this process's memory and its own queue.
     */
    JOBS_TABLE_NAME: optionalText,
    JOBS_BUCKET_NAME: optionalText,
    JOBS_QUEUE_URL: z.optional(z.url({ protocol: /^https?$/ })),
    /** Days a job and its results are kept. */
    JOBS_TTL_DAYS: intVar(JOB_TTL_DAYS_DEFAULT, 1, 30),
    /** References per batch message: twenty, one Crossref lookup of DOIs. */
    JOBS_BATCH_SIZE: intVar(JOB_BATCH_SIZE_DEFAULT, 1, 200),
    /** Messages one invocation of the worker takes (the event source mapping's BatchSize). */
    JOBS_MESSAGES_PER_INVOCATION: intVar(2, 1, 10),
    /** Receives of a batch before the dead-letter queue: the last one is its last try. */
    JOBS_MAX_RECEIVES: intVar(5, 2, 100),
    /** A batch with references to ask again waits this long before its second try, three times as long each time after. */
    JOBS_RETRY_SECONDS: secondsVar(10, 0, 900),
    /** The same for a webhook's tries. */
    JOBS_WEBHOOK_RETRY_SECONDS: secondsVar(10, 0, 900),
    /** The worker's time for one invocation; the queue's visibility timeout is six times it. */
    JOBS_WORKER_TIMEOUT_SECONDS: secondsVar(90, 0.1, 900),
    /** Worker invocations at once on the embedded queue; unset: sized from Crossref's pace (lib/jobs/sizing.ts). */
    JOBS_WORKER_CONCURRENCY: z.optional(
      z.pipe(
        z.string().check(z.regex(/^\d+$/, { error: 'must be a whole number' })),
        z.transform(Number).check(z.gte(1), z.lte(1_000)),
      ),
    ),
    /**
     * "allow": webhooks may go to loopback, private and reserved addresses (`npm start` sets it, to try a
     * receiver on the same machine). Link-local and metadata addresses are refused whatever it says.
     */
    JOBS_WEBHOOK_PRIVATE: z._default(z.enum(['allow', 'refuse']), 'refuse'),
    /** One webhook try's time for an answer. */
    JOBS_WEBHOOK_TIMEOUT_MS: intVar(10_000, 50, 60_000),
    /**
     * The gateway's authorizer: the stack whose usage-plan API keys it names for each client
     * (lib/auth/usage-key.ts). Unset everywhere else.
     */
    USAGE_KEY_SCOPE: optionalText,
    /** Powertools reads these itself too; here they are validated once, with this service's defaults. */
    POWERTOOLS_SERVICE_NAME: z._default(z.string().check(z.trim(), z.minLength(1)), 'search-citation-api'),
    /** Set where deployed: metrics are written only when a namespace is configured. */
    POWERTOOLS_METRICS_NAMESPACE: optionalText,
    POWERTOOLS_METRICS_DISABLED: optionalText,
  })
  .check(
    z.refine((c) => c.NO_UPSTREAM_KEY === 'true' || Boolean(c.SERPAPI_API_KEY ?? c.SERPAPI_SECRET_ID), {
      error: 'set SERPAPI_API_KEY or SERPAPI_SECRET_ID',
      path: ['SERPAPI_API_KEY'],
    }),
    // A function without the key must not be handed one: its role cannot read the secret anyway.
    z.refine((c) => c.NO_UPSTREAM_KEY !== 'true' || !(c.SERPAPI_API_KEY ?? c.SERPAPI_SECRET_ID), {
      error: 'NO_UPSTREAM_KEY=true: set neither SERPAPI_API_KEY nor SERPAPI_SECRET_ID',
      path: ['NO_UPSTREAM_KEY'],
    }),
    z.refine((c) => Boolean(c.API_KEYS ?? c.CLIENT_KEYS_SECRET_ID), {
      error: 'set API_KEYS or CLIENT_KEYS_SECRET_ID',
      path: ['API_KEYS'],
    }),
    // Both at once is a mistake, not a preference: whichever won, the other would be silently ignored,
    // and a plain key left in a deployed function's environment is what the secret exists to avoid.
    z.refine((c) => !(c.SERPAPI_API_KEY && c.SERPAPI_SECRET_ID), {
      error: 'set only one of SERPAPI_API_KEY (a plain key) and SERPAPI_SECRET_ID (the secret holding it)',
      path: ['SERPAPI_API_KEY'],
    }),
    // A key of another form cannot be SerpApi's: refused at start, not answered 401 on the first paid call.
    // Only for SerpApi itself: the demo upstream, an emulator or a test's fake take whatever key they are given.
    z.superRefine((c, ctx) => {
      const key = c.SERPAPI_API_KEY;
      if (key && isRealSerpApi(c.SERPAPI_BASE_URL) && !SERPAPI_KEY_FORM.test(key)) {
        ctx.issues.push({
          code: 'custom',
          message: serpApiKeyProblem(key),
          path: ['SERPAPI_API_KEY'],
          input: key,
          continue: true,
        });
      }
    }),
    z.refine((c) => !c.JOBS_TABLE_NAME || Boolean(c.JOBS_BUCKET_NAME), {
      error: 'JOBS_TABLE_NAME needs JOBS_BUCKET_NAME (the bucket for values too large for a table item)',
      path: ['JOBS_BUCKET_NAME'],
    }),
    z.refine((c) => !(c.API_KEYS && c.CLIENT_KEYS_SECRET_ID), {
      error: 'set only one of API_KEYS (plain keys) and CLIENT_KEYS_SECRET_ID (the secret holding their digests)',
      path: ['API_KEYS'],
    }),
  );

export type Config = Readonly<z.output<typeof configSchema>>;

/** Parses and validates the environment; throws one readable error naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return Object.freeze(parsed.data);
}

/** Read once, at cold start: a missing key fails the container's start, loudly, not a request later. */
export const config: Config = loadConfig(process.env);
