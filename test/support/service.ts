/**
 * Starts the real local server (real handlers, real middleware) in this test file's process with the
 * given environment, and a small client for it. Config is read once per process, so one test file is
 * one configuration, as one Lambda container is.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { LocalServer, StaticPages } from '../../lib/local/server.js';
import { type FakeSerpApi, startFakeSerpApi } from './fake-serpapi.js';

export const TEST_CLIENT_KEY = 'test-client-key-0123456789';
export const TEST_UPSTREAM_KEY = 'test-upstream-key-SECRET-9876';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary envelope fields
  json: any;
}

export interface Service {
  url: string;
  /** POST a JSON body (an object is stringified; a string is sent as is) with the test key. */
  post(path: string, body?: unknown, options?: { headers?: Record<string, string>; method?: string }): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * The environment every test service starts with, in this process or in a process of its own
 * (service-process.ts), before the test's own additions: one list, so that the two cannot drift apart.
 */
export const TEST_SERVICE_ENV: Readonly<Record<string, string>> = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  API_KEYS: TEST_CLIENT_KEY,
  SERPAPI_API_KEY: TEST_UPSTREAM_KEY,
  RETRY_BASE_DELAY_MS: '5',
  // Upstream answers are cached for an hour by default; most tests count upstream calls request by
  // request, so they run uncached unless their file turns the cache on.
  ANSWER_CACHE_TTL_SECONDS: '0',
  // The spending budget is far above what any test file makes; the budget's own tests set theirs.
  SEARCHES_PER_HOUR: '10000000',
  SEARCHES_PER_MONTH: '0',
  ACCOUNT_API_TTL_SECONDS: '0',
};

/** Every response body the suite has seen, for the no-secret-leaks check. */
export const seenBodies: string[] = [];

/** `pages` builds extra GET pages (docs) once the environment is settled, as `npm start` does. */
export async function startService(
  env: Record<string, string | undefined>,
  setup: { pages?: () => Promise<StaticPages> } = {},
): Promise<Service> {
  Object.assign(process.env, { ...TEST_SERVICE_ENV, ...env });
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
  const { startLocalServer } = (await import('../../lib/local/server.js')) as { startLocalServer: () => Promise<LocalServer> };
  const pages = await setup.pages?.();
  const local = await (startLocalServer as (o: { port: number; pages?: StaticPages }) => Promise<LocalServer>)({
    port: 0,
    pages,
  });
  return {
    url: local.url,
    async post(path, body = {}, options = {}) {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${TEST_CLIENT_KEY}`,
        'Content-Type': 'application/json',
        ...options.headers,
      };
      for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
      const method = options.method ?? 'POST';
      const response = await fetch(`${local.url}${path}`, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      seenBodies.push(text);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    close: () => local.close(),
  };
}

/**
 * The usual test file: a fake SerpApi and the service pointed at it, started once for the file (one
 * configuration per process, as one Lambda container), the fake reset before each test, both closed
 * after. `env` adds to or overrides the service's environment.
 */
export function useService(env: Record<string, string | undefined> = {}): {
  readonly upstream: FakeSerpApi;
  readonly service: Service;
} {
  let upstream: FakeSerpApi | undefined;
  let service: Service | undefined;
  beforeAll(async () => {
    upstream = await startFakeSerpApi();
    service = await startService({ SERPAPI_BASE_URL: upstream.url, ...env });
  });
  afterAll(async () => {
    await service?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream?.reset());
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is not started yet: use it inside a test or a hook`);
    return value;
  };
  return {
    get upstream() {
      return started(upstream, 'the fake upstream');
    },
    get service() {
      return started(service, 'the service');
    },
  };
}
