/**
 * Starts the service in a process of its own (service-child.ts under tsx), with exactly the environment
 * given plus PATH, and the same small client as `startService`. Two of these, or one and the test's own
 * process, are two containers: separate memory, one shared table.
 */
import { SERVICE_ENTRY, startChild } from './child-process.js';
import { TEST_CLIENT_KEY, TEST_UPSTREAM_KEY } from './service.js';

export interface ServiceProcess {
  url: string;
  pid: number;
  /** POSTs with the test's client key, unless `headers` gives another Authorization (or '' for none). */
  post(
    path: string,
    body: unknown,
    options?: { headers?: Record<string, string> },
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary envelope fields
  ): Promise<{ status: number; headers: Headers; json: any }>;
  /** Asks the child a command of service-child.ts (its CPU time and memory, the starts its paces gave). */
  call<T>(cmd: string, arg?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** `env` is added to the defaults below; a variable given as undefined is left out (API_KEYS, for a secret instead). */
export async function startServiceProcess(env: Record<string, string | undefined>): Promise<ServiceProcess> {
  const merged: Record<string, string | undefined> = {
    API_KEYS: TEST_CLIENT_KEY,
    SERPAPI_API_KEY: TEST_UPSTREAM_KEY,
    RETRY_BASE_DELAY_MS: '5',
    // No test may reach the real Crossref: one that wants Crossref passes the fake's URL.
    CROSSREF_BASE_URL: 'http://127.0.0.1:9',
    // Far above what a test makes; the budget's own tests set theirs.
    SEARCHES_PER_HOUR: '10000000',
    SEARCHES_PER_MONTH: '0',
    ACCOUNT_API_TTL_SECONDS: '0',
    ...env,
  };
  const given = Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const child = await startChild<{ url: string }>(SERVICE_ENTRY, given, { quiet: true });
  const { url } = child.ready;
  return {
    url,
    pid: child.pid,
    async post(path, body, options) {
      const headers = { Authorization: `Bearer ${TEST_CLIENT_KEY}`, 'Content-Type': 'application/json', ...options?.headers };
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, json: JSON.parse(text) };
    },
    call: child.call,
    stop: child.stop,
  };
}
