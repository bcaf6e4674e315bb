/**
 * The demo (`npm start` without a key: recorded answers) over MCP says it is one where an agent reads: a
 * tool result built from recordings leads its text with the recordings it replays and names them in
 * `_meta.demo_recordings`, so that a citation search for "CRISPR off-target effects" answered from the
 * "bananas" recording says so. Every tool's text carries what its structuredContent holds, on the demo's
 * recordings as on the fakes (mcp-clients.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USAGE_NOTE } from '../../lib/local/demo-recording.js';
import { type ReplayCrossref, startReplayCrossref } from '../../lib/local/replay-crossref.js';
import { type ReplayUpstream, startReplayUpstream } from '../../lib/local/replay-upstream.js';
import { toolName } from '../../lib/mcp/descriptions.js';
import { REQUEST_EXAMPLES } from '../../lib/openapi-examples.js';
import { ROUTES } from '../../lib/routes.js';
import { connectClient, type McpTestClient, textOf } from '../support/mcp-clients.js';
import { type Service, startService, TEST_CLIENT_KEY } from '../support/service.js';
import { missingFromText } from '../support/text-coverage.js';

let replay: ReplayUpstream;
let crossref: ReplayCrossref;
let service: Service;
let client: McpTestClient;

beforeAll(async () => {
  [replay, crossref] = await Promise.all([startReplayUpstream(), startReplayCrossref()]);
  service = await startService({ SERPAPI_BASE_URL: replay.url, CROSSREF_BASE_URL: crossref.url });
  client = await connectClient('client-2.x pinned 2026-07-28', `${service.url}/mcp`, TEST_CLIENT_KEY);
}, 180_000);

afterAll(async () => {
  await client?.close();
  await service?.close();
  await Promise.all([replay?.close(), crossref?.close()]);
});

// The free tools search nothing: the budget, the citation resolver and style catalogue, the jobs.
const PAID = ROUTES.filter((route) => !['usage', 'cite-resolve', 'cite-styles'].includes(route.name) && route.tag !== 'Jobs');

describe('the demo over MCP', () => {
  it('says which recording a citation search replays, in the text and in _meta', async () => {
    const result = await client.callTool('cite_search', { query: 'CRISPR off-target effects', results: 2 });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toMatch(/^\(demo: recorded answer for "bananas"\)\n/);
    expect(result._meta?.demo_recordings).toEqual(['bananas']);
  });

  it('says on the usage tool that the searches it counts are replays, none paid for', async () => {
    await client.callTool('web_search_alpha', { q: 'coffee', no_cache: true });
    const result = await client.callTool('usage', {});
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result).startsWith(`${DEMO_USAGE_NOTE}\n`)).toBe(true);
    expect((result.structuredContent as { hour: { used: number } }).hour.used).toBeGreaterThanOrEqual(1);
    expect(result._meta?.demo_recordings).toBeUndefined();
  });

  it('marks every paid tool’s answer as a recording, and its text carries all its data', async () => {
    for (const route of PAID) {
      const result = await client.callTool(
        toolName(route.name),
        (REQUEST_EXAMPLES[route.name]?.value ?? {}) as Record<string, unknown>,
      );
      expect(result.isError, `${route.name}: ${textOf(result)}`).toBeFalsy();
      expect(textOf(result), route.name).toMatch(/^\(demo: recorded answers? for /);
      expect(Array.isArray(result._meta?.demo_recordings), route.name).toBe(true);
      expect(missingFromText(result.structuredContent, textOf(result)), route.name).toEqual([]);
    }
  });
});
