/**
 * POST /mcp with the official MCP SDK client over real HTTP against the local server: one tool per route
 * of the table, every tool called with its route's documented example (answered by the fake upstream's
 * recorded samples), errors as tool errors, the key checked before anything else, 405 for GET and DELETE,
 * and protocol version negotiation.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { FREE_ROUTES, toolName } from '../../lib/mcp/descriptions.js';
import { PROTOCOL_VERSIONS } from '../../lib/mcp/server.js';
import { loadRouteSchemas, toSchema } from '../../lib/openapi.js';
import { REQUEST_EXAMPLES } from '../../lib/openapi-examples.js';
import { ROUTES } from '../../lib/routes.js';
import { startFakeCrossref } from '../support/fake-crossref.js';
import { withJob } from '../support/jobs.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';

const crossref = await startFakeCrossref();
afterAll(() => crossref.close());
const harness = useService({ CROSSREF_BASE_URL: crossref.url });

const INITIALIZE = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-test', version: '1' } },
});
const MCP_HEADERS = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };

async function connect(key = TEST_CLIENT_KEY): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${harness.service.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

const textOf = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .map((part) => part.text ?? '')
    .join('\n');

describe('MCP endpoint', () => {
  it('lists one tool per route of the table, with a description and the endpoint’s own schemas', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(ROUTES.map((route) => toolName(route.name)).sort());
    for (const route of ROUTES) {
      const tool = tools.find((t) => t.name === toolName(route.name));
      const { requestSchema } = await loadRouteSchemas(route);
      expect((tool?.description ?? '').length, route.path).toBeGreaterThan(40);
      // The OpenAPI document's request fields (made compact for a model by lib/mcp/tools.ts, whose own test
      // checks how); no output schemas: the text says what the data holds.
      const fields = (schema: unknown) => Object.keys((schema as { properties?: object } | undefined)?.properties ?? {}).sort();
      expect(tool?.inputSchema.type, route.path).toBe('object');
      expect(fields(tool?.inputSchema), route.path).toEqual(fields(toSchema(requestSchema, 'input', route.path)));
      expect(tool?.outputSchema, route.path).toBeUndefined();
    }
    // The usage route was added to the table with no MCP code; it is a tool like the others.
    expect(tools.map((tool) => tool.name)).toContain('usage');
    await client.close();
  });

  it('calls every tool with its route’s example: the endpoint’s data as structuredContent, and text', async () => {
    const client = await connect();
    // The job tools read the job the submission tool made (the routes table lists it first).
    let jobId: string | undefined;
    for (const route of ROUTES) {
      const example = REQUEST_EXAMPLES[route.name];
      expect(example, `${route.name} has an example`).toBeDefined();
      const args = withJob(example?.value ?? {}, jobId);
      const before = harness.upstream.calls();
      // The SDK client validates structuredContent against the tool's outputSchema itself.
      const result = await client.callTool({ name: toolName(route.name), arguments: args });
      if (route.name === 'jobs-submit') jobId = (result.structuredContent as { job_id?: string }).job_id;
      expect(result.isError, `${route.path}: ${textOf(result)}`).toBeFalsy();
      expect(result.structuredContent, route.path).toBeTypeOf('object');
      expect(textOf(result).length, route.path).toBeGreaterThan(0);
      // Every list of titled results shows its first title in the text.
      for (const value of Object.values(result.structuredContent as Record<string, unknown>)) {
        const first = Array.isArray(value) ? (value[0] as { title?: unknown } | undefined) : undefined;
        if (typeof first?.title === 'string' && first.title.trim())
          expect(textOf(result), route.path).toContain(first.title.trim());
      }
      if (FREE_ROUTES.has(route.name)) {
        // Free tools make no paid call; the same request to the API answers the same data.
        expect(harness.upstream.calls() - before, route.path).toBe(0);
        if (route.tag === 'Jobs') {
          // A job moves on between two calls, and a submission makes a new one: the same job's answer, of the same shape.
          const direct = await harness.service.post(route.path, route.name === 'jobs-submit' ? args : { job_id: jobId });
          expect(direct.status, route.path).toBe(route.successStatus ?? 200);
          expect(Object.keys(result.structuredContent as object).sort(), route.path).toEqual(
            Object.keys(direct.json.data).sort(),
          );
          if (route.name !== 'jobs-submit') expect((result.structuredContent as { job_id: string }).job_id).toBe(jobId);
        } else if (route.name !== 'usage') {
          const direct = await harness.service.post(route.path, example?.value);
          expect(result.structuredContent, route.path).toEqual(direct.json.data);
        }
        continue;
      }
      // A tool call is an API call: it reached the upstream (a check only when asked to search Google Scholar,
      // as often as it says), and the same request to the API answers the same data.
      if (route.name === 'cite-check')
        expect(harness.upstream.calls() - before, route.path).toBe(
          (result.structuredContent as { scholar_searches: number }).scholar_searches,
        );
      else expect(harness.upstream.calls() - before, route.path).toBeGreaterThan(0);
      const direct = await harness.service.post(route.path, example?.value);
      expect(direct.status, route.path).toBe(200);
      if (route.name === 'cite-search') {
        // Which citations a paper gets depends on whether Crossref answered within its time budget, which
        // a loaded machine decides: the papers themselves are the comparison.
        const papers = (data: unknown) =>
          (data as { papers: { scholar_id: string; title: string }[] }).papers.map((p) => [p.scholar_id, p.title]);
        expect(papers(result.structuredContent), route.path).toEqual(papers(direct.json.data));
      } else {
        expect(result.structuredContent, route.path).toEqual(direct.json.data);
      }
    }
    await client.close();
  });

  it('renders top results with titles and links, and citations as text, for clients that read only text', async () => {
    const client = await connect();
    const web = await client.callTool({ name: 'web_search_alpha', arguments: { q: 'coffee' } });
    const first = (web.structuredContent as { organic_results: { title: string; link: string }[] }).organic_results[0];
    expect(textOf(web)).toContain(first?.title);
    expect(textOf(web)).toContain(first?.link);
    expect(textOf(web)).toMatch(/Next page: call again with page=1/);
    const cite = await client.callTool({ name: 'cite_search', arguments: { query: 'bananas', results: 3, format: 'APA' } });
    const references = (cite.structuredContent as { reference_list: string[] }).reference_list;
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) expect(textOf(cite)).toContain(reference);
    await client.close();
  });

  it('answers invalid arguments with a tool error naming each field, and no paid call', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'web_search_alpha', arguments: { q: 'coffee', num: 50, colour: 'red' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/INVALID_REQUEST/);
    expect(textOf(result)).toMatch(/num: must be an integer from 1 to 10/);
    expect(textOf(result)).toMatch(/colour: unknown field/);
    expect(textOf(result)).toMatch(/What to do: /);
    const missing = await client.callTool({ name: 'cite_search', arguments: {} });
    expect(textOf(missing)).toMatch(/query: /);
    expect(harness.upstream.calls()).toBe(0);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool: no_such_tool/);
    await client.close();
  });

  it('turns an upstream failure into a tool error with what to do', async () => {
    const client = await connect();
    harness.upstream.queue('status500', 'status500', 'status500', 'status500');
    const failed = await client.callTool({ name: 'web_search_charlie', arguments: { q: 'coffee' } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/UPSTREAM_ERROR[\s\S]*What to do: Retry once, or use another web_search_\* tool/);
    expect(failed._meta).toMatchObject({ code: 'UPSTREAM_ERROR', status: 502 });
    await client.close();
  });

  it('refuses a missing or wrong key before anything else, with a Bearer challenge that names the key', async () => {
    for (const authorization of [undefined, 'Bearer wrong-key-0123456789', 'Basic abc']) {
      const reply = await fetch(`${harness.service.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, ...(authorization ? { Authorization: authorization } : {}) },
        body: JSON.stringify(INITIALIZE(LATEST_PROTOCOL_VERSION)),
      });
      expect(reply.status).toBe(401);
      // invalid_token and no resource_metadata: an OAuth-capable client reports the key, not a login.
      expect(reply.headers.get('www-authenticate')).toMatch(
        /^Bearer error="invalid_token", error_description="[^"]*API key[^"]*"$/,
      );
      expect(reply.headers.get('www-authenticate')).not.toMatch(/resource_metadata/);
      expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    }
    await expect(connect('wrong-key-0123456789')).rejects.toThrow();
    expect(harness.upstream.calls()).toBe(0);
  });

  it('answers GET and DELETE with 405 (no streams, no sessions)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const reply = await fetch(`${harness.service.url}/mcp`, {
        method,
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${TEST_CLIENT_KEY}` },
      });
      expect(reply.status, method).toBe(405);
      expect(reply.headers.get('allow'), method).toBe('POST');
    }
  });

  it('negotiates the protocol version: each supported one is answered in kind, any other gets the latest', async () => {
    expect(PROTOCOL_VERSIONS).toEqual(expect.arrayContaining(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']));
    for (const version of [...PROTOCOL_VERSIONS, '2099-01-01']) {
      const reply = await fetch(`${harness.service.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, Authorization: `Bearer ${TEST_CLIENT_KEY}` },
        body: JSON.stringify(INITIALIZE(version)),
      });
      expect(reply.status).toBe(200);
      // Plain JSON, and no session: any container can answer the next request.
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.headers.get('mcp-session-id')).toBeNull();
      const body = (await reply.json()) as { result: { protocolVersion: string; capabilities: { tools?: unknown } } };
      const expected = PROTOCOL_VERSIONS.includes(version) ? version : LATEST_PROTOCOL_VERSION;
      expect(body.result.protocolVersion, version).toBe(expected);
      expect(body.result.capabilities.tools).toBeDefined();
    }
  });
});
