/** Every error the middleware decides, over real HTTP, in the order docs/decisions.md §1 fixes. */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type Reply, TEST_CLIENT_KEY, useService } from '../support/service.js';

const harness = useService();

const ALPHA = '/v1/web-search/alpha';

function expectFailure(reply: Reply, status: number, code: string, details?: string | RegExp) {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(reply.headers.get('x-request-id')).toBeTruthy();
  expect(reply.json).toEqual({
    success: false,
    message: expect.any(String),
    data: null,
    error: { code, details: expect.any(String) },
  });
  if (details) expect(reply.json.error.details).toMatch(details);
  expect(harness.upstream.calls()).toBe(0);
}

/** A raw request, for what fetch will not send (no Content-Type at all). */
function rawPost(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, harness.service.url);
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'Content-Length': Buffer.byteLength(body), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('authentication', () => {
  it.each([
    ['no Authorization header', ''],
    ['the Basic scheme', `Basic ${TEST_CLIENT_KEY}`],
    ['an empty Bearer key', 'Bearer '],
    ['a wrong key', 'Bearer not-the-key'],
    ['a key with a wrong suffix', `Bearer ${TEST_CLIENT_KEY}x`],
  ])('answers 401 UNAUTHORIZED with WWW-Authenticate for %s', async (_name, authorization) => {
    const reply = await harness.service.post(ALPHA, { q: 'coffee' }, { headers: { Authorization: authorization } });
    expectFailure(reply, 401, 'UNAUTHORIZED', 'Authorization: Bearer');
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('gives the same answer for every kind of bad credential', async () => {
    const missing = await harness.service.post(ALPHA, { q: 'x' }, { headers: { Authorization: '' } });
    const wrong = await harness.service.post(ALPHA, { q: 'x' }, { headers: { Authorization: 'Bearer nope' } });
    expect(missing.json).toEqual(wrong.json);
  });

  it.each([
    ['the right key', `Bearer ${TEST_CLIENT_KEY}`],
    ['a lower-case scheme', `bearer ${TEST_CLIENT_KEY}`],
    ['two spaces after the scheme', `Bearer  ${TEST_CLIENT_KEY}`],
  ])('accepts %s', async (_name, authorization) => {
    const reply = await harness.service.post(ALPHA, { q: 'coffee' }, { headers: { Authorization: authorization } });
    expect(reply.status).toBe(200);
    expect(reply.json.success).toBe(true);
  });

  it('checks auth before validation: an unauthenticated caller learns nothing about its body', async () => {
    const reply = await harness.service.post(ALPHA, '{not json', { headers: { Authorization: '' } });
    expectFailure(reply, 401, 'UNAUTHORIZED');
  });
});

describe('transport', () => {
  it('answers 404 NOT_FOUND for an unknown path', async () => {
    expectFailure(await harness.service.post('/v1/web-search/echo', { q: 'x' }), 404, 'NOT_FOUND', '/v1/web-search/echo');
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers 405 METHOD_NOT_ALLOWED with Allow: POST for %s', async (method) => {
    const reply = await harness.service.post(ALPHA, { q: 'x' }, { method });
    expectFailure(reply, 405, 'METHOD_NOT_ALLOWED', method);
    expect(reply.headers.get('allow')).toBe('POST');
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a 17 KiB body', async () => {
    expectFailure(await harness.service.post(ALPHA, { q: 'a'.repeat(17 * 1024) }), 413, 'PAYLOAD_TOO_LARGE', '16384 bytes');
  });

  it('answers 413 for a 2 MiB body without holding it', async () => {
    expectFailure(await harness.service.post(ALPHA, 'x'.repeat(2 * 1024 * 1024)), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for a form body', async () => {
    const reply = await harness.service.post(ALPHA, 'q=x', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expectFailure(reply, 415, 'UNSUPPORTED_MEDIA_TYPE', 'application/json');
  });

  it('accepts application/json with a charset, and a body with no Content-Type at all', async () => {
    const withCharset = await harness.service.post(
      ALPHA,
      { q: 'x' },
      { headers: { 'Content-Type': 'application/json; charset=UTF-8' } },
    );
    expect(withCharset.status).toBe(200);
    const bare = await rawPost(ALPHA, '{"q":"x"}', { Authorization: `Bearer ${TEST_CLIENT_KEY}` });
    expect(bare.status).toBe(200);
  });

  it('answers 400 MALFORMED_JSON for a body that is not JSON', async () => {
    expectFailure(await harness.service.post(ALPHA, '{"q": "x",'), 400, 'MALFORMED_JSON', 'not valid JSON');
  });

  it('treats an empty body as {} and so names the missing q', async () => {
    expectFailure(await harness.service.post(ALPHA, ''), 400, 'INVALID_REQUEST', /^q: is required$/);
  });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"coffee"'],
  ])('answers 400 INVALID_REQUEST for %s', async (_name, text) => {
    expectFailure(await harness.service.post(ALPHA, text), 400, 'INVALID_REQUEST', /^body: must be a JSON object$/);
  });

  it('names every bad field and makes no upstream call', async () => {
    const reply = await harness.service.post(ALPHA, { q: 'x', num: 101, page: -1, colour: 'red' });
    expectFailure(
      reply,
      400,
      'INVALID_REQUEST',
      // num's upper bound is the engine's page size (lib/schema.ts); the test is about naming every field.
      /^page: must be an integer from 0 to 99; num: must be an integer from 1 to \d+; colour: unknown field$/,
    );
  });
});
