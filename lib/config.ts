import * as z from 'zod/mini';

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

const configSchema = z
  .object({
    SERPAPI_BASE_URL: z._default(z.url({ protocol: /^https?$/ }), 'https://serpapi.com'),
    /** Locally, the upstream key itself; where deployed, SERPAPI_SECRET_ID names the secret that holds it. */
    SERPAPI_API_KEY: optionalText,
    SERPAPI_SECRET_ID: optionalText,
    /** Locally, comma-separated plain client keys; where deployed, CLIENT_KEYS_SECRET_ID holds their digests. */
    API_KEYS: optionalText,
    CLIENT_KEYS_SECRET_ID: optionalText,
    SECRETS_TTL_SECONDS: intVar(300, 0, 86_400),
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
    /** A paper's citations never change: kept per warm container (entries, seconds; 0 turns it off). */
    CITE_CACHE_MAX: intVar(2_000, 0, 100_000),
    CITE_CACHE_TTL_SECONDS: intVar(86_400, 0, 604_800),
    /** Scholarly search pages change slowly: kept briefly, so a repeated request costs no upstream call. */
    SEARCH_CACHE_MAX: intVar(200, 0, 10_000),
    SEARCH_CACHE_TTL_SECONDS: intVar(300, 0, 86_400),
    /** Powertools reads these itself too; here they are validated once, with this service's defaults. */
    POWERTOOLS_SERVICE_NAME: z._default(z.string().check(z.trim(), z.minLength(1)), 'search-citation-api'),
    /** Set where deployed: metrics are written only when a namespace is configured. */
    POWERTOOLS_METRICS_NAMESPACE: optionalText,
    POWERTOOLS_METRICS_DISABLED: optionalText,
  })
  .check(
    z.refine((c) => Boolean(c.SERPAPI_API_KEY ?? c.SERPAPI_SECRET_ID), {
      error: 'set SERPAPI_API_KEY or SERPAPI_SECRET_ID',
      path: ['SERPAPI_API_KEY'],
    }),
    z.refine((c) => Boolean(c.API_KEYS ?? c.CLIENT_KEYS_SECRET_ID), {
      error: 'set API_KEYS or CLIENT_KEYS_SECRET_ID',
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
