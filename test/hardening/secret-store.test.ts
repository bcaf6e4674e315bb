/**
 * A failing secret store, on every endpoint of ROUTES: the client key digests and the upstream key come
 * from Secrets Manager (the real AWS SDK against a local endpoint speaking its protocol). A store that does
 * not answer (down, or silent) is 503 SERVICE_UNAVAILABLE with Retry-After, never a 401 for a good key; a
 * secret the deployment got wrong is 500 SERVICE_MISCONFIGURED. Either way with no upstream call and nothing
 * of the secret in it, within SECRETS_TIMEOUT_MS when the store never answers, and the failure is not
 * cached: once the store is fixed, the next request succeeds. A caller with no key at all gets 401
 * meanwhile, as always.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogLines } from '../support/capture-logs.js';
import { type FakeSecretsManager, startFakeSecretsManager } from '../support/fake-secrets-manager.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type Reply, type Service, seenBodies, startService } from '../support/service.js';
import { everyRoute, routesWithoutFacts } from './facts.js';
import { countLeaks, expectClean, expectFailure, expectNoKeyIn, expectSuccess, reportSummary, watchTimerLag } from './support.js';

// Keys share no ten-character piece with anything else the service says (the leak check looks for pieces).
const CLIENT_KEY = 'ck-7f3a9c51e2d84b06';
const UPSTREAM_KEY = 'uk-b81d44e07c9a2f35';
const KEYS_SECRET = 'hardening/keys';
const UPSTREAM_SECRET = 'hardening/upstream';
const DIGEST = createHash('sha256').update(CLIENT_KEY).digest('hex');
const SECRETS = [CLIENT_KEY, UPSTREAM_KEY, DIGEST];
const KEYS_VALUE = JSON.stringify({ keys: [{ name: 'team-a', sha256: DIGEST }] });
const UPSTREAM_VALUE = JSON.stringify({ serpapi_api_key: UPSTREAM_KEY });
// Cached values live one second, so each case waits for the cache to expire, as a warm container would.
const TTL_SECONDS = 1;
// A silent store is given up on after this; the request deadline (25 s by default) is far off. Seconds, not
// less: once the store is fixed, a real read must finish within it even on a machine busy with other work.
const SECRETS_TIMEOUT_MS = 3_000;
// Loopback, a shared CPU, and every endpoint at once.
const SLACK_MS = 1_000;

let store: FakeSecretsManager;
let upstream: FakeSerpApi;
let service: Service;
const tally = { cases: 0, survived: 0 };

beforeAll(async () => {
  store = await startFakeSecretsManager({ [KEYS_SECRET]: KEYS_VALUE, [UPSTREAM_SECRET]: UPSTREAM_VALUE });
  upstream = await startFakeSerpApi();
  // Down from the start: the very first request of the container meets a broken store.
  store.down = true;
  service = await startService({
    SERPAPI_BASE_URL: upstream.url,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: store.url,
    API_KEYS: undefined,
    SERPAPI_API_KEY: undefined,
    CLIENT_KEYS_SECRET_ID: KEYS_SECRET,
    SERPAPI_SECRET_ID: UPSTREAM_SECRET,
    SECRETS_TTL_SECONDS: String(TTL_SECONDS),
    SECRETS_TIMEOUT_MS: String(SECRETS_TIMEOUT_MS),
    // A cached answer needs no upstream key, so it would rightly succeed while that secret is broken.
    SEARCH_CACHE_MAX: '0',
    CITE_CACHE_MAX: '0',
  });
});

afterAll(async () => {
  await service?.close();
  await upstream?.close();
  await store?.close();
  reportSummary('secret-store', {
    order: 4,
    text: `secret store faults: ${tally.survived} of ${EXPECTED_CHECKS} answered as specified and recovered${tally.cases === EXPECTED_CHECKS ? '' : ` (${tally.cases} tried)`}`,
    bodiesChecked: seenBodies.length,
    logLinesChecked: capturedLogLines.length,
    leaks: countLeaks([...seenBodies, ...capturedLogLines], SECRETS),
  });
});

function restore(): void {
  store.down = false;
  store.hang = false;
  store.hangingSecrets.clear();
  store.secrets.set(KEYS_SECRET, KEYS_VALUE);
  store.secrets.set(UPSTREAM_SECRET, UPSTREAM_VALUE);
}

/**
 * One request per endpoint, all at once, with the client key (or the given Authorization header). `ms` is
 * less the time this process was not run meanwhile: the service runs in it, so its timers waited as long.
 */
async function onEveryEndpoint(authorization = `Bearer ${CLIENT_KEY}`): Promise<{ path: string; reply: Reply; ms: number }[]> {
  const lag = watchTimerLag();
  const started = performance.now();
  const replies = await Promise.all(
    everyRoute().map(async ({ route, facts }) => {
      const reply = await service.post(route.path, facts.body, { headers: { Authorization: authorization } });
      return { path: route.path, reply, at: performance.now() };
    }),
  );
  const notRun = lag.stop().total;
  return replies.map(({ path, reply, at }) => ({ path, reply, ms: at - started - notRun }));
}

/** Breaks the store, expects every endpoint to refuse without an upstream call, fixes it, expects every endpoint to recover. */
async function breakAndRecover(
  breakIt: () => void,
  options: { waitForExpiry: boolean; clientAnswer: 'SERVICE_MISCONFIGURED' | 'SERVICE_UNAVAILABLE' },
): Promise<void> {
  if (options.waitForExpiry) await new Promise((resolve) => setTimeout(resolve, TTL_SECONDS * 1000 + 100));
  breakIt();
  const callsBefore = upstream.calls();
  for (const { path, reply, ms } of await onEveryEndpoint()) {
    tally.cases += 1;
    try {
      expectFailure(reply, options.clientAnswer);
      if (options.clientAnswer === 'SERVICE_UNAVAILABLE') expect(reply.headers.get('retry-after')).toBe('3');
      expectClean(reply.text, SECRETS);
      expect(reply.text).not.toContain('hardening/');
      expect(ms, 'milliseconds to the answer').toBeLessThan(SECRETS_TIMEOUT_MS + SLACK_MS);
    } catch (error) {
      throw new Error(`${path} while broken: ${(error as Error).message}`, { cause: error });
    }
    tally.survived += 1;
  }
  expect(upstream.calls(), 'upstream calls while the store is broken').toBe(callsBefore);
  const storeCallsBefore = store.calls;
  for (const { path, reply } of await onEveryEndpoint('')) {
    tally.cases += 1;
    try {
      expectFailure(reply, 'UNAUTHORIZED');
      tally.survived += 1;
    } catch (error) {
      throw new Error(`${path} without a key while broken: ${(error as Error).message}`, { cause: error });
    }
  }
  expect(store.calls, 'secret reads for callers without a key').toBe(storeCallsBefore);
  restore();
  for (const { path, reply } of await onEveryEndpoint()) {
    tally.cases += 1;
    try {
      expectSuccess(reply);
    } catch (error) {
      throw new Error(`${path} once fixed: ${(error as Error).message}`, { cause: error });
    }
    tally.survived += 1;
  }
}

describe('the route table', () => {
  it('has hardening facts for every route in ROUTES', () => {
    expect(routesWithoutFacts()).toEqual([]);
  });
});

type Answer = 'SERVICE_MISCONFIGURED' | 'SERVICE_UNAVAILABLE';

/** Each way the store breaks once a cached value has expired (every one a case on every endpoint), and the answer. */
const BREAKS: [string, () => void, Answer][] = [
  [
    'the store is down',
    () => {
      store.down = true;
    },
    'SERVICE_UNAVAILABLE',
  ],
  [
    'the client key secret is missing',
    () => {
      store.secrets.delete(KEYS_SECRET);
    },
    'SERVICE_MISCONFIGURED',
  ],
  [
    'the client key secret is not JSON',
    () => {
      store.secrets.set(KEYS_SECRET, `${DIGEST} team-a`);
    },
    'SERVICE_MISCONFIGURED',
  ],
  [
    'the client key secret has no keys array',
    () => {
      store.secrets.set(KEYS_SECRET, JSON.stringify({ sha256: DIGEST }));
    },
    'SERVICE_MISCONFIGURED',
  ],
  // A store that takes the request and never answers: each read is given up after SECRETS_TIMEOUT_MS.
  [
    'the store never answers',
    () => {
      store.hang = true;
    },
    'SERVICE_UNAVAILABLE',
  ],
  [
    'the upstream key secret never answers, while the client key secret does',
    () => {
      store.hangingSecrets.add(UPSTREAM_SECRET);
    },
    'SERVICE_UNAVAILABLE',
  ],
  [
    'the upstream key secret is missing',
    () => {
      store.secrets.delete(UPSTREAM_SECRET);
    },
    'SERVICE_MISCONFIGURED',
  ],
  // The mistake an operator is most likely to make: the bare key instead of {"serpapi_api_key": ...}.
  [
    'the upstream key secret is the bare key, not JSON',
    () => {
      store.secrets.set(UPSTREAM_SECRET, UPSTREAM_KEY);
    },
    'SERVICE_MISCONFIGURED',
  ],
  [
    'the upstream key secret lacks serpapi_api_key',
    () => {
      store.secrets.set(UPSTREAM_SECRET, JSON.stringify({ api_key: UPSTREAM_KEY }));
    },
    'SERVICE_MISCONFIGURED',
  ],
];

/**
 * What the summary counts against: each break (and the cold start) checks every endpoint three times,
 * broken with a key, broken without one, and once fixed. Fixed from the table, not from what ran.
 */
const EXPECTED_CHECKS = (BREAKS.length + 1) * 3 * everyRoute().length;

// Each case waits out the cache, then makes three rounds of eleven requests; the first also loads every
// handler, which beside eight busy processes took over 20 s.
describe('a broken secret store is 503 or 500 on every endpoint, never 401 for a good key, and is not cached', {
  timeout: 120_000,
}, () => {
  // A container that has never read the client keys cannot tell a client from a stranger: 503 for every key.
  it('when the store is down at cold start (503: no key can be checked yet)', async () => {
    await breakAndRecover(
      () => {
        store.down = true;
      },
      { waitForExpiry: false, clientAnswer: 'SERVICE_UNAVAILABLE' },
    );
  });

  it.each(BREAKS)('when %s once the cached value has expired', async (_name, breakIt, answer) => {
    await breakAndRecover(breakIt, { waitForExpiry: true, clientAnswer: answer });
  });

  it('refuses a key that is not in the secret, with no upstream call', async () => {
    const before = upstream.calls();
    const reply = await service.post(everyRoute()[0]?.route.path ?? '/', {}, { headers: { Authorization: 'Bearer not-a-key' } });
    expectFailure(reply, 'UNAUTHORIZED');
    expect(upstream.calls()).toBe(before);
  });
});

describe('keys', () => {
  it('sends the upstream key from its secret, and never puts a key, a digest or a fragment of one in a body or a log line', () => {
    expect(upstream.requests.length).toBeGreaterThan(0);
    expect(upstream.requests.every((query) => query.get('api_key') === UPSTREAM_KEY)).toBe(true);
    expectNoKeyIn(seenBodies, SECRETS);
    expectNoKeyIn(capturedLogLines, SECRETS);
  });
});
