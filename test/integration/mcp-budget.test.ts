/**
 * The MCP endpoint spends the API's own budget: with room for one search an hour, the first tool call
 * searches, the next is a tool error saying when to retry (the API's Retry-After), and the usage tool,
 * which makes no search, still answers and shows the hour used up.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';

const harness = useService({ SEARCHES_PER_HOUR: '1', SEARCHES_PER_MONTH: '1000' });

const textOf = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .map((part) => part.text ?? '')
    .join('\n');
const endOfHour = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
};

describe('MCP tool calls and the spending budget', () => {
  it('counts each call, then answers a tool error with when to retry', async () => {
    const client = new Client({ name: 'mcp-budget-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${harness.service.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${TEST_CLIENT_KEY}` } },
      }),
    );
    const first = await client.callTool({ name: 'web_search_alpha', arguments: { q: 'coffee' } });
    expect(first.isError, textOf(first)).toBeFalsy();
    expect(harness.upstream.calls()).toBe(1);

    const before = Date.now();
    const refused = await client.callTool({ name: 'web_search_bravo', arguments: { q: 'tea' } });
    const after = Date.now();
    expect(refused.isError).toBe(true);
    expect(harness.upstream.calls()).toBe(1);
    const text = textOf(refused);
    expect(text).toMatch(/^Error BUDGET_EXHAUSTED: /);
    expect(text).toMatch(/1 searches this hour/);
    // The retry advice is the API's Retry-After: the seconds to the end of this hour, as the request saw it.
    const seconds = (refused._meta as { retry_after_seconds: number }).retry_after_seconds;
    expect(seconds).toBeGreaterThanOrEqual(Math.ceil((endOfHour(after) - after) / 1000));
    expect(seconds).toBeLessThanOrEqual(Math.ceil((endOfHour(before) - before) / 1000));
    expect(text).toContain(`What to do: Do not retry for ${seconds} seconds (until `);
    expect(refused._meta).toMatchObject({ code: 'BUDGET_EXHAUSTED', status: 429 });

    const usage = await client.callTool({ name: 'usage', arguments: {} });
    expect(usage.isError, textOf(usage)).toBeFalsy();
    expect((usage.structuredContent as { hour: unknown }).hour).toMatchObject({ limit: 1, used: 1, left: 0 });
    await client.close();
  });
});
