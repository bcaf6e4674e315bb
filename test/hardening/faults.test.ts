/**
 * Every way the upstream can fail, on every endpoint of ROUTES at once, over real HTTP. Each request
 * carries its own token in its search text, so the fake upstream can fault each endpoint's calls by script
 * while all of them run together. The service has its deployed timeouts (10 s an attempt, 25 s a request):
 * shorter ones turned a busy machine's slowness into the timeouts under test (eleven requests at once
 * beside eight busy processes answered 504 where the fault called for 502, 503 or 200).
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../lib/errors.js';
import { sample, sampleFor } from '../../lib/local/samples.js';
import { capturedLogLines } from '../support/capture-logs.js';
import { type FakeSerpApi, type Fault, startFakeSerpApi } from '../support/fake-serpapi.js';
import { type Reply, type Service, seenBodies, startService, TEST_CLIENT_KEY, TEST_UPSTREAM_KEY } from '../support/service.js';
import { type CoveredRoute, everyRoute, routesWithoutFacts } from './facts.js';
import {
  countLeaks,
  expectClean,
  expectFailure,
  expectNoKeyIn,
  expectSuccess,
  FaultScripts,
  reportSummary,
  watchTimerLag,
} from './support.js';

const SECRETS = [TEST_UPSTREAM_KEY, TEST_CLIENT_KEY, createHash('sha256').update(TEST_CLIENT_KEY).digest('hex')];
const UPSTREAM_TIMEOUT_MS = 10_000;
const REQUEST_DEADLINE_MS = 25_000;
/**
 * The deadline is the contract: an answer must come by then, plus what the machine itself needs to
 * answer, measured just before each faulted round as the slowest of the same requests answered normally
 * (three times it, at least 1.5 s): a busy machine gets the room it shows it needs, and a service that
 * ignores its deadline (answering at the 28 s cap) still fails.
 */
function answerBy(normalMs: number): number {
  return REQUEST_DEADLINE_MS + Math.max(1500, 3 * normalMs);
}

let upstream: FakeSerpApi;
let service: Service;
let scripts: FaultScripts;
const tally = { faults: 0, survived: 0 };

beforeAll(async () => {
  upstream = await startFakeSerpApi();
  service = await startService({
    SERPAPI_BASE_URL: upstream.url,
    // One attempt may take longer than what is left of the deadline, so the deadline must cut it short.
    UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    REQUEST_DEADLINE_MS: String(REQUEST_DEADLINE_MS),
    MAX_RETRY_AFTER_MS: '1200',
    RETRY_BASE_DELAY_MS: '5',
    CITE_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    // Every paper of the recorded scholar page has the same id: a cached citation would hide the faulted call.
    SEARCH_CACHE_MAX: '0',
    CITE_CACHE_MAX: '0',
  });
  scripts = new FaultScripts(upstream);
  // The first answer of each endpoint loads its modules (citation styles take seconds on a busy machine):
  // done here, so that no faulted round is timed against a cold start.
  // Its answers are not judged: on a busy machine a cold first call may be slow.
  scripts.install();
  await round({}, false);
}, 120_000);

beforeEach(() => {
  upstream.reset();
  scripts.install();
});

afterAll(async () => {
  await service?.close();
  await upstream?.close();
  reportSummary('faults', {
    order: 3,
    text: `upstream faults: ${tally.survived} of ${tally.faults} answered as specified`,
    bodiesChecked: seenBodies.length,
    logLinesChecked: capturedLogLines.length,
    leaks: countLeaks([...seenBodies, ...capturedLogLines], SECRETS),
  });
});

interface Outcome {
  covered: CoveredRoute;
  token: string;
  reply: Reply;
  elapsedMs: number;
  /** The latest the answer may come, from the normal round measured before. */
  answerByMs: number;
}

/** One request per endpoint, each with its own token scripted as given, all at once or one by one. */
async function round(script: { faults?: Fault[]; always?: Fault }, oneAtATime: boolean) {
  const send = async (covered: CoveredRoute) => {
    const token = scripts.token(script);
    const { facts, route } = covered;
    const started = performance.now();
    const reply = await service.post(route.path, facts.text.set(facts.body, facts.text.withToken(token)));
    return { covered, token, reply, elapsedMs: performance.now() - started };
  };
  if (!oneAtATime) return Promise.all(everyRoute().map(send));
  const outcomes = [];
  for (const covered of everyRoute()) outcomes.push(await send(covered));
  return outcomes;
}

/**
 * Sends one request per endpoint with its own token scripted as given, after the same requests answered
 * normally, whose slowest sets how late the faulted answers may come.
 */
async function onEveryEndpoint(script: { faults?: Fault[]; always?: Fault }, oneAtATime = false): Promise<Outcome[]> {
  // Only timed, not judged (the tests below judge answers): a normal call may time out on a busy machine.
  const normal = await round({}, oneAtATime);
  const allowed = answerBy(Math.max(...normal.map((outcome) => outcome.elapsedMs)));
  // The service runs in this process: time this process was not run (its timers fired late) delayed the
  // service's own deadline timer as much, so it is added to the allowance rather than held against it.
  const lag = watchTimerLag();
  const outcomes = await round(script, oneAtATime);
  const lateMs = lag.stop().total;
  return outcomes.map((outcome) => ({ ...outcome, answerByMs: allowed + lateMs }));
}

/** Runs `check` on each endpoint's outcome, counting the fault as survived only if every check passed. */
function each(outcomes: Outcome[], check: (outcome: Outcome, calls: number) => void): void {
  for (const outcome of outcomes) {
    tally.faults += 1;
    const calls = scripts.callTimes(outcome.token).length;
    try {
      expectClean(outcome.reply.text, SECRETS);
      expect(outcome.elapsedMs, 'ms to answer').toBeLessThan(outcome.answerByMs);
      check(outcome, calls);
    } catch (error) {
      throw new Error(`${outcome.covered.route.path}: ${(error as Error).message}`, { cause: error });
    }
    tally.survived += 1;
  }
}

/** `calls` gets how many calls a request makes before it stops at failures (`failingCalls`, else `textCalls`). */
function failsWith(code: ErrorCode, calls: (textCalls: number) => number | [number, number]) {
  return ({ reply, covered }: Outcome, made: number) => {
    expectFailure(reply, code);
    const expected = calls(covered.facts.failingCalls ?? covered.facts.textCalls);
    if (typeof expected === 'number') expect(made, 'upstream calls').toBe(expected);
    else {
      expect(made, 'upstream calls').toBeGreaterThanOrEqual(expected[0]);
      expect(made, 'upstream calls').toBeLessThanOrEqual(expected[1]);
    }
  };
}

describe('the route table', () => {
  it('has hardening facts for every route in ROUTES', () => {
    expect(routesWithoutFacts()).toEqual([]);
  });
});

// Each test makes two rounds of eleven requests, the slowest waiting out retries and the deadline (25 s
// for a hang): the suite's default timeout, which catches a hang of the test itself.
describe('upstream faults on every endpoint', () => {
  it('answers 504 UPSTREAM_TIMEOUT by the deadline when the upstream hangs', async () => {
    each(
      await onEveryEndpoint({ always: 'hang' }),
      failsWith('UPSTREAM_TIMEOUT', (n) => [n, 3 * n]),
    );
  });

  it('answers 502 UPSTREAM_ERROR after three attempts when every connection is reset', async () => {
    each(
      await onEveryEndpoint({ always: 'reset' }),
      failsWith('UPSTREAM_ERROR', (n) => 3 * n),
    );
  });

  it('answers 502 UPSTREAM_ERROR after three attempts for an HTML 502, and passes no HTML on', async () => {
    each(await onEveryEndpoint({ always: 'html502' }), (outcome, calls) => {
      failsWith('UPSTREAM_ERROR', (n) => 3 * n)(outcome, calls);
      expect(outcome.reply.json.error.details).toContain('answered HTTP 502');
      expect(outcome.reply.text).not.toMatch(/<html|Bad Gateway/i);
    });
  });

  it('retries a 500 and answers 200 when the next attempt succeeds', async () => {
    each(await onEveryEndpoint({ faults: ['status500'] }), ({ reply, covered }, calls) => {
      expectSuccess(reply);
      expect(calls, 'upstream calls').toBe(covered.facts.textCalls + 1);
    });
  });

  it('honours a 429 Retry-After of 1 s within the deadline and answers 200', async () => {
    each(await onEveryEndpoint({ faults: ['rate429'] }), ({ reply, covered, token }, calls) => {
      expectSuccess(reply);
      expect(calls, 'upstream calls').toBe(covered.facts.textCalls + 1);
      const times = scripts.callTimes(token);
      // The refused call is the first; its retry is the last, and came no sooner than asked (timers may fire 1 ms early).
      expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(990);
    });
  });

  it('answers 503 UPSTREAM_QUOTA_EXCEEDED with Retry-After when the upstream keeps refusing', async () => {
    each(await onEveryEndpoint({ always: 'rate429' }), (outcome, calls) => {
      failsWith('UPSTREAM_QUOTA_EXCEEDED', (n) => [n, 3 * n])(outcome, calls);
      expect(outcome.reply.headers.get('retry-after')).toBe('1');
    });
  });

  it('answers 503 at once, passing the Retry-After on, when waiting would not fit the deadline', async () => {
    const refuse: Fault = {
      status: 429,
      body: '{"error":"Your searches for the month are exhausted."}',
      headers: { 'Retry-After': '60' },
    };
    each(await onEveryEndpoint({ always: refuse }), (outcome, calls) => {
      failsWith('UPSTREAM_QUOTA_EXCEEDED', (n) => n)(outcome, calls);
      expect(outcome.reply.headers.get('retry-after')).toBe('60');
    });
  });

  it('answers 502 UPSTREAM_ERROR for invalid JSON, without retrying', async () => {
    each(
      await onEveryEndpoint({ always: 'garbage' }),
      failsWith('UPSTREAM_ERROR', (n) => n),
    );
  });

  it('answers 502 UPSTREAM_ERROR for a JSON answer that is not an object', async () => {
    each(
      await onEveryEndpoint({ always: { json: ['not', 'an', 'object'] } }),
      failsWith('UPSTREAM_ERROR', (n) => n),
    );
  });

  it("answers 502 UPSTREAM_ERROR passing on a 200 answer's error field", async () => {
    each(await onEveryEndpoint({ always: 'errorBody' }), (outcome, calls) => {
      failsWith('UPSTREAM_ERROR', (n) => n)(outcome, calls);
      expect(outcome.reply.json.error.details).toContain('Unsupported `xx` location');
    });
  });

  it('redacts the key from an upstream error that quotes it, in either form', async () => {
    const quoting: Fault = { json: { error: `Bad request for api_key=${TEST_UPSTREAM_KEY}&q=x (key ${TEST_UPSTREAM_KEY})` } };
    each(await onEveryEndpoint({ always: quoting }), (outcome, calls) => {
      failsWith('UPSTREAM_ERROR', (n) => n)(outcome, calls);
      expect(outcome.reply.json.error.details).toContain('[redacted]');
    });
  });

  it("answers 500 SERVICE_MISCONFIGURED for SerpApi's invalid-key answer, without echoing the key", async () => {
    each(await onEveryEndpoint({ always: 'invalidKey' }), (outcome, calls) => {
      failsWith('SERVICE_MISCONFIGURED', (n) => n)(outcome, calls);
      expect(outcome.reply.text).not.toContain('manage-api-key');
    });
  });

  it('answers 500 SERVICE_MISCONFIGURED for a 403 from the upstream, without retrying', async () => {
    const forbidden: Fault = { status: 403, body: JSON.stringify({ error: `Account suspended (${TEST_UPSTREAM_KEY})` }) };
    each(
      await onEveryEndpoint({ always: forbidden }),
      failsWith('SERVICE_MISCONFIGURED', (n) => n),
    );
  });

  it('answers 502 UPSTREAM_ERROR for a 404 from the upstream, without retrying', async () => {
    const missing: Fault = { status: 404, body: JSON.stringify({ error: 'Unknown engine' }) };
    each(
      await onEveryEndpoint({ always: missing }),
      failsWith('UPSTREAM_ERROR', (n) => n),
    );
  });

  it('refuses an answer larger than a result page can be, without holding it', async () => {
    // 9 MiB once unpacked, 9 KiB gzipped and sent without a length: the service must count the bytes
    // it unpacks. Sent to one endpoint at a time, as unpacking 8 MiB takes tens of ms of CPU each.
    const huge: Fault = {
      status: 200,
      body: gzipSync(`{"organic_results":"${'x'.repeat(9 * 1024 * 1024)}"}`),
      headers: { 'Content-Encoding': 'gzip' },
    };
    each(
      await onEveryEndpoint({ always: huge }, true),
      failsWith('UPSTREAM_ERROR', (n) => n),
    );
  });

  it('passes on no key from a successful answer that quotes it in every string', async () => {
    // A link or a search echo could carry the key back (SerpApi's own links carry it when a client sent it).
    const quoteKey = (value: unknown): unknown => {
      if (typeof value === 'string')
        return `${value} https://serpapi.com/search.json?api_key=${TEST_UPSTREAM_KEY}&q=x ${TEST_UPSTREAM_KEY}`;
      if (Array.isArray(value)) return value.map(quoteKey);
      if (typeof value === 'object' && value !== null)
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, quoteKey(v)]));
      return value;
    };
    upstream.respond((query) => {
      const name = sampleFor(query);
      return name ? { json: quoteKey(sample(name)) } : undefined;
    });
    const outcomes = await Promise.all(
      everyRoute().map(async (covered) => ({
        covered,
        reply: await service.post(covered.route.path, covered.facts.body),
      })),
    );
    for (const { covered, reply } of outcomes) {
      tally.faults += 1;
      try {
        expectSuccess(reply);
        expectClean(reply.text, SECRETS);
      } catch (error) {
        throw new Error(`${covered.route.path}: ${(error as Error).message}`, { cause: error });
      }
      tally.survived += 1;
    }
  });

  it('answers from a partial failure when only an optional call fails', async () => {
    const partial = everyRoute().filter((covered) => covered.facts.optionalCall);
    expect(partial.length).toBeGreaterThan(0);
    for (const covered of partial) {
      const optional = covered.facts.optionalCall;
      upstream.respond((query) => (optional?.matches(query) ? 'reset' : undefined));
      const before = upstream.calls();
      const reply = await service.post(
        covered.route.path,
        covered.facts.text.set(optional?.body ?? covered.facts.body, covered.facts.text.withToken('partial')),
      );
      tally.faults += 1;
      try {
        expectSuccess(reply);
        expectClean(reply.text, SECRETS);
        const optionalCalls = upstream.requests.slice(before).filter((query) => optional?.matches(query)).length;
        expect(optionalCalls, `calls for ${optional?.name}`).toBeGreaterThan(0);
      } catch (error) {
        throw new Error(`${covered.route.path}: ${(error as Error).message}`, { cause: error });
      }
      tally.survived += 1;
    }
  });
});

describe('keys', () => {
  it('never puts the upstream key, a client key or its digest in a response body or a log line', () => {
    expect(seenBodies.length).toBeGreaterThan(50);
    expectNoKeyIn(seenBodies, SECRETS);
    expectNoKeyIn(capturedLogLines, SECRETS);
  });
});
