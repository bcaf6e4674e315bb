/**
 * Every request that can make more than one paid search is refused whole, before the first, when the
 * budget has one search fewer than it can make (docs/decisions.md §8, "A request refused whole"): each
 * route of the cost table whose costliest request costs N > 1 is sent that request with N − 1 searches
 * left, over HTTP and as its MCP tool (whose description promises that cost), and must be answered 429
 * BUDGET_EXHAUSTED with no upstream call. Each route has its own key, whose daily limit is its N − 1, so
 * one process holds every case and no route's spending reaches another's.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { PAID_CALLS_PER_REQUEST } from '../../infra/budget.js';
import { toolName } from '../../lib/mcp/descriptions.js';
import { ROUTES } from '../../lib/routes.js';
import { COSTLIEST_REQUESTS, SAMPLE_REQUESTS } from '../fixtures/sample-requests.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';

/** The routes whose costliest request can make several paid searches, with that cost. */
const SEVERAL = ROUTES.map((route) => ({ route, cost: PAID_CALLS_PER_REQUEST[route.name] ?? 0 })).filter(({ cost }) => cost > 1);
const keyOf = (name: string) => `plan-${name}-key-0123456789`;

// Crossref's pace raised, as in the paid-calls test: the reference check's costliest list (100 references,
// each searched in Google Scholar) would not fit one request at the public pace.
const harness = useService({
  CROSSREF_REQUESTS_PER_SECOND: '1000',
  API_KEYS: [
    TEST_CLIENT_KEY,
    ...SEVERAL.map(({ route, cost }) => `plan-${route.name}:${keyOf(route.name)}:daily=${cost - 1}`),
  ].join(','),
});

const textOf = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as { text?: string }[]).map((part) => part.text ?? '').join('\n');
const costliest = (name: string) => ({ ...((COSTLIEST_REQUESTS[name] ?? SAMPLE_REQUESTS[name]) as object), no_cache: true });

describe('a request that can make N paid searches, with N − 1 left', () => {
  it('is a case for every route of the cost table that can make several', () => {
    expect(SEVERAL.map(({ route }) => route.name).sort()).toEqual([
      'alpha-trends',
      'cite-check',
      'cite-search',
      'scholar-author-citation',
      'scholar-profiles',
      'web-search-alpha',
    ]);
  });

  it.each(SEVERAL.map(({ route, cost }) => [route.path, route.name, cost] as const))(
    '%s is refused whole, before any paid search',
    async (path, name, cost) => {
      const reply = await harness.service.post(path, costliest(name), {
        headers: { Authorization: `Bearer ${keyOf(name)}` },
      });
      expect(reply.status, reply.text).toBe(429);
      expect(reply.json.error.code).toBe('BUDGET_EXHAUSTED');
      expect(reply.json.error.details).toContain(`${cost - 1} of ${cost - 1} searches left today`);
      expect(reply.json.error.details).toContain(`fewer than the ${cost} this request can make`);
      expect(harness.upstream.calls()).toBe(0);
    },
  );

  it.each(SEVERAL.map(({ route, cost }) => [toolName(route.name), route.name, cost] as const))(
    'the MCP tool %s is a tool error, before any paid search',
    async (tool, name, cost) => {
      const client = new Client({ name: 'budget-plans-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${harness.service.url}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${keyOf(name)}` } },
        }),
      );
      try {
        const refused = await client.callTool({ name: tool, arguments: costliest(name) });
        expect(refused.isError, textOf(refused)).toBe(true);
        expect(textOf(refused)).toMatch(/^Error BUDGET_EXHAUSTED: /);
        expect(textOf(refused)).toContain(`fewer than the ${cost} this request can make`);
        expect(harness.upstream.calls()).toBe(0);
      } finally {
        await client.close();
      }
    },
  );
});
