/**
 * What an upstream's refusal or silence becomes in an MCP tool's answer: the time its 429 asks to wait
 * (Retry-After) reaches the model, as a tool error's retry advice for SerpApi, and as each unresolved
 * reference's reason for Crossref (cite_resolve answers every reference, never an error); an unresolved
 * reference says nothing of a citation source it does not have; a provider that does not answer is
 * answered "retry", never "ask for a smaller page". Real handlers over HTTP on loopback, the fake SerpApi
 * and the fake Crossref.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAID_CALLS_PER_REQUEST } from '../../infra/budget.js';
import { toolName } from '../../lib/mcp/descriptions.js';
import { ROUTES } from '../../lib/routes.js';
import { SAMPLE_REQUESTS } from '../fixtures/sample-requests.js';
import { type FakeCrossref, startFakeCrossref } from '../support/fake-crossref.js';
import { type FakeSerpApi, startFakeSerpApi } from '../support/fake-serpapi.js';
import { connectClient, type McpTestClient, textOf } from '../support/mcp-clients.js';
import { type Service, startService, TEST_CLIENT_KEY } from '../support/service.js';

const DEADLINE_MS = 1_500;
let upstream: FakeSerpApi;
let crossref: FakeCrossref;
let service: Service;
let client: McpTestClient;

beforeAll(async () => {
  [upstream, crossref] = await Promise.all([startFakeSerpApi(), startFakeCrossref()]);
  service = await startService({
    SERPAPI_BASE_URL: upstream.url,
    CROSSREF_BASE_URL: crossref.url,
    REQUEST_DEADLINE_MS: String(DEADLINE_MS),
  });
  client = await connectClient('client-2.x pinned 2026-07-28', `${service.url}/mcp`, TEST_CLIENT_KEY);
});
afterAll(async () => {
  await client?.close();
  await service?.close();
  await Promise.all([upstream?.close(), crossref?.close()]);
});
beforeEach(() => {
  upstream.reset();
  crossref.reset();
});

// The reference check plans its Scholar searches against the request's time, which this file's short
// deadline (for the hang below) leaves too little of: its paid calls' refusals are tested in
// cite-check-limits.test.ts.
const PAID = ROUTES.filter((route) => (PAID_CALLS_PER_REQUEST[route.name] ?? 0) > 0 && route.name !== 'cite-check');

describe('an upstream 429 with Retry-After', () => {
  it.each(PAID.map((route) => [toolName(route.name), route.name] as const))(
    '%s: the tool error says to retry after the time SerpApi asked, in its text and its _meta',
    async (tool, name) => {
      upstream.respond(() => ({ status: 429, body: '{"error":"Too many requests"}', headers: { 'Retry-After': '120' } }));
      const result = await client.callTool(tool, { ...(SAMPLE_REQUESTS[name] as object), no_cache: true });
      expect(result.isError, textOf(result)).toBe(true);
      expect(textOf(result)).toMatch(/^Error UPSTREAM_QUOTA_EXCEEDED: /);
      expect(textOf(result)).toContain('What to do: Retry in 120 seconds');
      expect(result._meta).toMatchObject({ code: 'UPSTREAM_QUOTA_EXCEEDED', retry_after_seconds: 120 });
    },
  );

  it('cite_resolve: each reference Crossref refused says when to ask again, and none names a source it lacks', async () => {
    crossref.respond(() => ({ status: 429, body: 'Too Many Requests', headers: { 'Retry-After': '60' } }));
    const before = Date.now();
    const result = await client.callTool('cite_resolve', {
      references: ['10.1234/nothing.here', 'Boettiger, C. (2018). From noise to knowledge. Ecology Letters, 21(8), 1255–1267.'],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const references = (result.structuredContent as { references: { doi: unknown; reason: string }[] }).references;
    expect(references.map((reference) => reference.doi)).toEqual([null, null]);
    for (const { reason } of references) {
      const until = /\(Retry-After: ask again after (\S+Z)\)$/.exec(reason)?.[1];
      expect(until, reason).toBeDefined();
      // Sixty seconds after Crossref answered, which came after the call was sent.
      expect(Date.parse(until ?? '')).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 60_000);
      expect(textOf(result)).toContain(reason);
    }
    expect(textOf(result)).not.toContain('undefined');
    expect(textOf(result)).not.toContain('citations_source');
  });
});

describe('an upstream that does not answer', () => {
  it('is answered "retry once", never "ask for a smaller page": web_search_alpha, whose page size changes no search', async () => {
    upstream.respond(() => 'hang');
    const result = await client.callTool('web_search_alpha', { q: 'coffee', num: 10, no_cache: true });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error UPSTREAM_TIMEOUT: /);
    expect(textOf(result)).toMatch(/What to do: Retry once, or use another web_search_\* tool/);
    expect(textOf(result)).not.toMatch(/smaller `num`|fewer results/);
  });
});
