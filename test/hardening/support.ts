/**
 * Shared checks of the hardening suite: the exact envelope, response hygiene (no stack, no path, no
 * environment value, no key), a raw HTTP client for what fetch will not send, a fake-upstream router that
 * tells concurrent requests apart by a token in their search text, and the summary line.
 */
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../lib/errors.js';
import type { FakeSerpApi, Fault } from '../support/fake-serpapi.js';
import { type Reply, seenBodies } from '../support/service.js';

export const ENVELOPE_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A V8 stack frame ("at fn (file:1:2)", "at file:1:2", "at async fn"), as a stack trace would show it. */
const STACK_FRAME = /\bat (async )?[\w$.<>[\] ]*\(?(file:|node:|\/|[A-Za-z]:\\)[^)\s]*:\d+/;
/** A file path on the machine or in the bundle. */
const FILE_PATH = /(file:\/\/|\/(?:work|home|root|tmp|usr|var|opt|var\/task)\/|node_modules|\w\.(?:ts|mjs|cjs)\b)/;

/**
 * The environment's values long enough to be recognised (a value of a few characters such as "1" or
 * "true" would match any body by chance). Read when called: the service sets its variables at start.
 */
function environmentValues(): string[] {
  return Object.values(process.env).filter(
    (value): value is string => typeof value === 'string' && value.length >= 8 && !/^[\d.]+$/.test(value),
  );
}

/** Fails if `text` holds a stack frame, a file path, an environment value or one of `secrets`. */
export function expectClean(text: string, secrets: readonly string[]): void {
  expect(text, 'a stack frame').not.toMatch(STACK_FRAME);
  expect(text, 'a file path').not.toMatch(FILE_PATH);
  for (const secret of secrets) expect(text.includes(secret), 'a key in the body').toBe(false);
  for (const value of environmentValues())
    expect(text.includes(value), `an environment value (${value.length} chars)`).toBe(false);
}

function expectCommonHeaders(reply: Reply): void {
  expect(reply.headers.get('content-type')).toBe(ENVELOPE_CONTENT_TYPE);
  expect(reply.headers.get('x-request-id')).toMatch(/^\S{8,}$/);
}

/** Matches a details line that names `field` (or one of its items, `field.0`) as one of its subjects. */
export function namesField(field: string): RegExp {
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|; )${escaped}(\\.\\d+)?: `);
}

/** The failure envelope exactly: status from the code table, the code's message, data null, code and details. */
export function expectFailure(reply: Reply, code: ErrorCode, field?: string): void {
  expect(reply.status, `status of ${reply.text.slice(0, 200)}`).toBe(ERROR_CODES[code].status);
  expectCommonHeaders(reply);
  expect(Object.keys(reply.json ?? {}).sort()).toEqual(['data', 'error', 'message', 'success']);
  expect(reply.json.success).toBe(false);
  expect(reply.json.message).toBe(ERROR_CODES[code].message);
  expect(reply.json.data).toBeNull();
  expect(Object.keys(reply.json.error).sort()).toEqual(['code', 'details']);
  expect(reply.json.error.code).toBe(code);
  expect(typeof reply.json.error.details).toBe('string');
  expect(reply.json.error.details.length).toBeGreaterThan(0);
  if (field !== undefined) expect(reply.json.error.details).toMatch(namesField(field));
}

/** The success envelope exactly: 200, success true, a message, an object of data, no error. */
export function expectSuccess(reply: Reply): void {
  expect(reply.status, `status of ${reply.text.slice(0, 300)}`).toBe(200);
  expectCommonHeaders(reply);
  expect(Object.keys(reply.json ?? {}).sort()).toEqual(['data', 'message', 'success']);
  expect(reply.json.success).toBe(true);
  expect(typeof reply.json.message).toBe('string');
  expect(reply.json.message.length).toBeGreaterThan(0);
  expect(typeof reply.json.data).toBe('object');
  expect(reply.json.data).not.toBeNull();
}

/**
 * Whether a body is a well-formed envelope whose code agrees with its status (for the load run, where
 * thousands of answers are checked without one expect each). Returns the error code, 'OK', or undefined.
 */
export function envelopeCode(status: number, text: string): ErrorCode | 'OK' | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const envelope = json as Record<string, unknown>;
  const keys = Object.keys(envelope).sort().join(',');
  if (envelope.success === true) {
    const ok = keys === 'data,message,success' && status === 200 && typeof envelope.message === 'string';
    return ok && typeof envelope.data === 'object' && envelope.data !== null ? 'OK' : undefined;
  }
  const error = envelope.error as Record<string, unknown> | undefined;
  if (keys !== 'data,error,message,success' || envelope.success !== false || envelope.data !== null || !error) return undefined;
  const code = error.code as ErrorCode;
  if (!(code in ERROR_CODES) || ERROR_CODES[code].status !== status) return undefined;
  if (Object.keys(error).sort().join(',') !== 'code,details' || typeof error.details !== 'string' || error.details === '') {
    return undefined;
  }
  return envelope.message === ERROR_CODES[code].message ? code : undefined;
}

/**
 * One request exactly as given (no Content-Type unless set, any method, raw bytes), for what fetch
 * normalises away. The body it gets is kept with the others for the leak check.
 */
export function rawRequest(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string | string[]>; body?: string | Buffer } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = options.body ?? '';
    const req = httpRequest(
      new URL(path, base),
      { method: options.method ?? 'POST', headers: { 'Content-Length': Buffer.byteLength(body), ...options.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          seenBodies.push(text);
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// A parser's error message quotes about ten characters of its input ("Unexpected token 'a', "abcdefabcd"...
// is not valid JSON"): a fragment that long is a leak too.
const FRAGMENT = 10;

/** Every FRAGMENT-character piece of each secret. */
function fragments(secrets: readonly string[]): string[] {
  return [
    ...new Set(
      secrets.flatMap((secret) =>
        Array.from({ length: Math.max(1, secret.length - FRAGMENT + 1) }, (_, i) => secret.slice(i, i + FRAGMENT)),
      ),
    ),
  ];
}

function leaking(texts: readonly string[], secrets: readonly string[]): string[] {
  const pieces = fragments(secrets);
  return texts.filter((text) => pieces.some((piece) => text.includes(piece)));
}

/** How many of `texts` hold a secret or a fragment of one. */
export function countLeaks(texts: readonly string[], secrets: readonly string[]): number {
  return leaking(texts, secrets).length;
}

/** Fails, showing the start of each, if any of `texts` holds a secret or a fragment of one. */
export function expectNoKeyIn(texts: readonly string[], secrets: readonly string[]): void {
  expect(leaking(texts, secrets).map((text) => text.slice(0, 300))).toEqual([]);
}

/**
 * Scripts the fake upstream per request: each request carries `hz<n>hz` in its search text, and calls
 * carrying that token are answered by its script, so every endpoint can be faulted at once in one test.
 * Calls without a token (a citation lookup, the citing documents) get the recorded samples.
 */
export class FaultScripts {
  private next = 0;
  private readonly scripts = new Map<string, { faults: Fault[]; always?: Fault }>();
  private readonly times = new Map<string, number[]>();

  constructor(private readonly upstream: FakeSerpApi) {}

  /** Routes the fake's answers through the scripts (again after `upstream.reset()`). */
  install(): void {
    this.upstream.respond((query) => {
      const token = FaultScripts.tokenOf(query);
      if (!token) return undefined;
      this.times.set(token, [...(this.times.get(token) ?? []), Date.now()]);
      const script = this.scripts.get(token);
      return script?.faults.shift() ?? script?.always;
    });
  }

  /** A new token whose calls get `faults` one by one, then `always` (or the recorded sample). */
  token(script: { faults?: Fault[]; always?: Fault } = {}): string {
    this.next += 1;
    const token = `hz${this.next}hz`;
    this.scripts.set(token, { faults: [...(script.faults ?? [])], always: script.always });
    return token;
  }

  /** When each call carrying the token arrived, in ms since the epoch. */
  callTimes(token: string): number[] {
    return this.times.get(token) ?? [];
  }

  static tokenOf(query: URLSearchParams): string | undefined {
    for (const [, value] of query) {
      const match = /hz\d+hz/.exec(value);
      if (match) return match[0];
    }
    return undefined;
  }
}

export { watchTimerLag } from '../support/timer-lag.js';

// --- The summary line -----------------------------------------------------------------------------------

export interface SummaryPart {
  /** Where the part goes in the line (files finish in any order). */
  order: number;
  text: string;
  /** Response bodies and log lines this file checked for keys, and how many of them held one. */
  bodiesChecked: number;
  logLinesChecked: number;
  leaks: number;
}

const HERE = new URL('.', import.meta.url);

// One directory per vitest run: every test file runs in a child of the same vitest process.
function summaryDir(): string {
  return join(tmpdir(), `search-api-hardening-${process.ppid}`);
}

/** How many hardening test files there are, so that the last one to finish knows it is the last. */
function hardeningFiles(): number {
  return readdirSync(HERE).filter((name) => name.endsWith('.test.ts')).length;
}

/**
 * Prints this file's part of the summary on stderr (vitest hides passing tests' console output, not
 * stderr), and, when every hardening file of this run has reported, the whole line once.
 */
export function reportSummary(file: string, part: SummaryPart): void {
  process.stderr.write(`\nhardening (${file}): ${part.text}\n`);
  try {
    const dir = summaryDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${file}.json`), JSON.stringify(part));
    // Parts older than the longest plausible run belong to an earlier run that happened to share the id.
    const fresh = (name: string) => Date.now() - statSync(join(dir, name)).mtimeMs < 10 * 60_000;
    const parts = readdirSync(dir)
      .filter((name) => name.endsWith('.json') && fresh(name))
      .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as SummaryPart);
    if (parts.length < hardeningFiles()) return;
    // Two files finishing together may both see every part: only the one that creates the marker prints.
    openSync(join(dir, 'printed'), 'wx');
    parts.sort((a, b) => a.order - b.order);
    const bodies = parts.reduce((n, p) => n + p.bodiesChecked, 0);
    const lines = parts.reduce((n, p) => n + p.logLinesChecked, 0);
    const leaks = parts.reduce((n, p) => n + p.leaks, 0);
    const line = [...parts.map((p) => p.text), `keys: ${leaks} leaks in ${bodies} response bodies and ${lines} log lines`].join(
      '; ',
    );
    process.stderr.write(`\nhardening summary: ${line}\n`);
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  } catch {
    // The summary is a report, not a check: a lost line must not fail the suite.
  }
}
