/**
 * A tool call runs under the endpoint's own request deadline: a hanging upstream ends as a tool error
 * (UPSTREAM_TIMEOUT) once that deadline passes, never as a client-side timeout. The deadline is short
 * here so that the test is quick; the verdict depends only on the error and on the call not ending before
 * the deadline the service was given.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';

const DEADLINE_MS = 1500;
const harness = useService({ REQUEST_DEADLINE_MS: String(DEADLINE_MS) });

const textOf = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .map((part) => part.text ?? '')
    .join('\n');

describe('MCP tool calls and the request deadline', () => {
  it('ends a call whose upstream hangs with a tool error at the endpoint’s deadline', async () => {
    const client = new Client({ name: 'mcp-deadline-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${harness.service.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${TEST_CLIENT_KEY}` } },
      }),
    );
    harness.upstream.respond(() => 'hang');
    const started = Date.now();
    const hung = await client.callTool({ name: 'web_search_bravo', arguments: { q: 'coffee' } });
    const elapsed = Date.now() - started;
    harness.upstream.respond(undefined);
    expect(hung.isError).toBe(true);
    expect(textOf(hung)).toMatch(/^Error UPSTREAM_TIMEOUT: /);
    expect(textOf(hung)).toMatch(/What to do: Retry once/);
    // The endpoint's deadline ended the wait, not anything sooner (the answer margin is 500 ms at most).
    expect(elapsed).toBeGreaterThanOrEqual(DEADLINE_MS - 500);
    await client.close();
  });
});
