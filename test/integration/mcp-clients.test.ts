/**
 * Conformance with the official MCP clients in every mode they offer (test/support/mcp-clients.ts): each
 * lists the tools, calls all of them with their routes' documented examples, makes a bad call and meets a
 * budget refusal, over real HTTP against the local server with the fake upstream. Every answer is checked
 * against the schema of the revision the client agreed on: a 2026-07-28 client decodes each result with
 * that revision's own schemas (a tool list without `ttlMs` or `cacheScope` makes `listTools` throw), and
 * the wire answers are held to the same required fields here; a 2025 client's answers are parsed with
 * the 1.x SDK's schemas of that revision. Every result's text carries what its structuredContent holds.
 */
import { CallToolResultSchema, InitializeResultSchema, ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { toolName } from '../../lib/mcp/descriptions.js';
import { LIST_CACHE, MODERN_PROTOCOL_VERSION, SERVER_INFO } from '../../lib/mcp/server.js';
import { REQUEST_EXAMPLES } from '../../lib/openapi-examples.js';
import { ROUTES } from '../../lib/routes.js';
import { startFakeCrossref } from '../support/fake-crossref.js';
import { withJob } from '../support/jobs.js';
import { CLIENT_MODES, connectClient, type McpTestClient, textOf, type WireExchange } from '../support/mcp-clients.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';
import { missingFromText } from '../support/text-coverage.js';

const crossref = await startFakeCrossref();
afterAll(() => crossref.close());
/** A second key whose daily budget is used up before it starts: every paid call of it is refused. */
const SPENT_KEY = 'spent-key-0123456789';
/** A third key with one search a day: enough for a call of cost 1, never for one that can make more. */
const ONE_LEFT_KEY = 'one-left-key-0123456789';
const harness = useService({
  CROSSREF_BASE_URL: crossref.url,
  API_KEYS: `${TEST_CLIENT_KEY},spent:${SPENT_KEY}:daily=0,one:${ONE_LEFT_KEY}:daily=1`,
});

const FREE = new Set([
  'usage',
  'cite-resolve',
  'cite-styles',
  ...ROUTES.filter((route) => route.tag === 'Jobs').map((route) => route.name),
]);

/** The wire answers checked against the schema of the revision each was answered in. */
function checkWire(wire: readonly WireExchange[], modern: boolean): void {
  for (const { method, reply, protocolVersionHeader } of wire) {
    if (!reply || !('result' in reply)) continue;
    const result = reply.result as Record<string, unknown>;
    if (modern && protocolVersionHeader === MODERN_PROTOCOL_VERSION) {
      // 2026-07-28: every result says it is complete and who answered; the cacheable ones how long to keep.
      expect(result.resultType, method).toBe('complete');
      expect((result._meta as Record<string, unknown>)?.['io.modelcontextprotocol/serverInfo'], method).toEqual(SERVER_INFO);
      if (method === 'tools/list' || method === 'server/discover') {
        expect(Number.isInteger(result.ttlMs) && (result.ttlMs as number) >= 0, `${method} ttlMs`).toBe(true);
        expect(['public', 'private'], `${method} cacheScope`).toContain(result.cacheScope);
      }
    } else {
      const schema =
        method === 'initialize'
          ? InitializeResultSchema
          : method === 'tools/list'
            ? ListToolsResultSchema
            : method === 'tools/call'
              ? CallToolResultSchema
              : undefined;
      if (schema) expect(schema.safeParse(result).success, `${method}: ${JSON.stringify(result).slice(0, 200)}`).toBe(true);
      // A 2025 answer carries none of 2026-07-28's result fields.
      expect(result.resultType, method).toBeUndefined();
    }
  }
}

describe.each(CLIENT_MODES)('the official client %s', (mode) => {
  const modern = mode === 'client-2.x auto' || mode === 'client-2.x pinned 2026-07-28';
  let client: McpTestClient;

  it('connects in the revision its mode asks for', async () => {
    client = await connectClient(mode, `${harness.service.url}/mcp`, TEST_CLIENT_KEY);
    expect(client.version).toBe(modern ? MODERN_PROTOCOL_VERSION : '2025-11-25');
  });

  it('lists every tool', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(ROUTES.map((route) => toolName(route.name)).sort());
    const list = client.wire.filter((exchange) => exchange.method === 'tools/list');
    expect(list.length).toBeGreaterThan(0);
    if (modern) expect(list.at(-1)?.reply.result).toMatchObject(LIST_CACHE);
  });

  it('calls all of them: data as structuredContent, a text that carries all of it', async () => {
    // The job tools read the job the submission tool made (the routes table lists it first).
    let jobId: string | undefined;
    for (const route of ROUTES) {
      const before = harness.upstream.calls();
      const result = await client.callTool(
        toolName(route.name),
        withJob((REQUEST_EXAMPLES[route.name]?.value ?? {}) as Record<string, unknown>, jobId),
      );
      if (route.name === 'jobs-submit') jobId = (result.structuredContent as { job_id?: string } | undefined)?.job_id;
      expect(result.isError, `${route.name}: ${textOf(result)}`).toBeFalsy();
      expect(result.structuredContent, route.name).toBeTypeOf('object');
      expect(missingFromText(result.structuredContent, textOf(result)), route.name).toEqual([]);
      if (FREE.has(route.name)) expect(harness.upstream.calls() - before, route.name).toBe(0);
      // A check searches Google Scholar only when asked, and says how often it did.
      else if (route.name === 'cite-check')
        expect(harness.upstream.calls() - before, route.name).toBe(
          (result.structuredContent as { scholar_searches: number }).scholar_searches,
        );
      else expect(harness.upstream.calls() - before, route.name).toBeGreaterThan(0);
    }
  });

  it('answers a bad call with a tool error naming the field, and an unknown tool with a protocol error', async () => {
    const before = harness.upstream.calls();
    const bad = await client.callTool('web_search_alpha', { q: 'coffee', num: 50 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Error INVALID_REQUEST: [\s\S]*num: must be an integer from 1 to 10/);
    expect(bad._meta).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    await expect(client.callTool('no_such_tool', {})).rejects.toThrow(/Unknown tool/);
    expect(harness.upstream.calls()).toBe(before);
  });

  it('meets a budget refusal as a tool error with what to do, and no paid call', async () => {
    const spent = await connectClient(mode, `${harness.service.url}/mcp`, SPENT_KEY);
    const before = harness.upstream.calls();
    const refused = await spent.callTool('web_search_bravo', { q: 'tea' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Error BUDGET_EXHAUSTED: [\s\S]*What to do: Do not retry for \d+ seconds/);
    expect(refused._meta).toMatchObject({ code: 'BUDGET_EXHAUSTED', status: 429 });
    expect(harness.upstream.calls()).toBe(before);
    checkWire(spent.wire, modern);
    await spent.close();
  });

  it('refuses a call that can make more searches than are left before any, saying to ask for less', async () => {
    const oneLeft = await connectClient(mode, `${harness.service.url}/mcp`, ONE_LEFT_KEY);
    const before = harness.upstream.calls();
    const trends = await oneLeft.callTool('alpha_trends', { queries: ['coffee'] });
    expect(trends.isError).toBe(true);
    expect(textOf(trends)).toMatch(
      /^Error BUDGET_EXHAUSTED: [\s\S]*1 of 1 searches left today, fewer than the 2 this request can make/,
    );
    expect(textOf(trends)).toMatch(
      /What to do: Do not call this tool again until the window named above has room; a tool of cost 1/,
    );
    const profiles = await oneLeft.callTool('scholar_profiles', { query: 'Honglak Lee', enrich: 3 });
    expect(profiles.isError).toBe(true);
    expect(textOf(profiles)).toMatch(/Ask for less: "enrich": 0 makes 1/);
    expect(textOf(profiles)).toMatch(/What to do: Call again asking for less, as said above; /);
    expect(profiles._meta).toMatchObject({ code: 'BUDGET_EXHAUSTED', status: 429 });
    expect(harness.upstream.calls()).toBe(before);
    checkWire(oneLeft.wire, modern);
    await oneLeft.close();
  });

  it('was answered, every time, as its revision’s schema requires', async () => {
    checkWire(client.wire, modern);
    // Besides the JSON-RPC messages, a 2025 client may open a GET stream (refused with 405: this server has none).
    const methods = new Set(client.wire.map((exchange) => exchange.method).filter(Boolean));
    expect(methods).toEqual(
      new Set(
        modern
          ? ['server/discover', 'tools/list', 'tools/call']
          : ['initialize', 'notifications/initialized', 'tools/list', 'tools/call'],
      ),
    );
    await client.close();
  });
});
