/**
 * Starts the service in a process of its own (test/support/service-child.ts under tsx), with exactly the
 * environment given plus PATH, and the same small client as `startService`. Two of these, or one and the
 * test's own process, are two containers: separate memory, one shared table.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_CLIENT_KEY, TEST_UPSTREAM_KEY } from './service.js';

export interface ServiceProcess {
  url: string;
  pid: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary envelope fields
  post(path: string, body: unknown): Promise<{ status: number; headers: Headers; json: any }>;
  stop(): Promise<void>;
}

export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = fork(fileURLToPath(new URL('./service-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
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
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) =>
      reject(new Error(`the service process exited (${code}) before it was ready: ${stderr.slice(-2000)}`)),
    );
  });
  return {
    url,
    pid: child.pid ?? 0,
    async post(path, body) {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TEST_CLIENT_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, json: JSON.parse(text) };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.disconnect();
      }),
  };
}
