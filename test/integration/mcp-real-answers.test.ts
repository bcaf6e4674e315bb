/**
 * Real SerpApi answers (test/fixtures/serpapi/) over MCP: the text of each web tool's result carries every
 * value of its structuredContent, so that a model reading only text sees the results' dates, the "people
 * also ask" answers of every type (an AI overview's text blocks and references, a list's items, an overview
 * held back), the answer box of any type (a weather box's forecast) and the knowledge graph.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type McpTestClient, textOf } from '../support/mcp-clients.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';
import { missingFromText } from '../support/text-coverage.js';

const harness = useService();
let client: McpTestClient;
beforeAll(async () => {
  client = await connectClient('client-2.x pinned 2026-07-28', `${harness.service.url}/mcp`, TEST_CLIENT_KEY);
});
afterAll(() => client?.close());

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/serpapi/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

const ANSWERS = [
  { tool: 'web_search_alpha', file: 'google-2026-01-03-ai-overview.json' },
  { tool: 'web_search_alpha', file: 'google-2025-04-21-answer-box.json' },
  { tool: 'web_search_alpha', file: 'google-2025-02-20-weather-answer-box.json' },
  { tool: 'web_search_alpha', file: 'google-2026-09-23-people-also-ask-held-back.json' },
  { tool: 'web_search_charlie', file: 'bing-2026-01-03.json' },
  { tool: 'web_search_bravo', file: 'duckduckgo-2023-07-20.json' },
];

describe('real answers over MCP', () => {
  for (const { tool, file } of ANSWERS) {
    it(`${tool} on ${file}: the text carries every value of the data`, async () => {
      const upstream = fixture(file);
      harness.upstream.respond(() => ({ json: upstream }));
      const result = await client.callTool(tool, { q: 'coffee', no_cache: true });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(missingFromText(result.structuredContent, textOf(result))).toEqual([]);
    });
  }

  it('shows the AI overview of a "people also ask" answer as text blocks with their references', async () => {
    harness.upstream.respond(() => ({ json: fixture('google-2026-01-03-ai-overview.json') }));
    const result = await client.callTool('web_search_alpha', { q: 'coffee', no_cache: true });
    const data = result.structuredContent as {
      people_also_ask: { ai_overview?: { text_blocks: { text: string }[]; references: { link: string }[] } }[];
    };
    const overview = data.people_also_ask.find((item) => item.ai_overview)?.ai_overview;
    expect(overview?.text_blocks.length).toBe(7);
    expect(overview?.references.length).toBe(11);
    for (const block of overview?.text_blocks ?? []) expect(textOf(result)).toContain(block.text.replace(/\s+/g, ' ').trim());
  });
});
