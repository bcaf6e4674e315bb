/**
 * The MCP tools as an agent meets them, over real HTTP with the SDK client: a compact tools/list with
 * portable schemas and annotations, and text results that carry what the structured result holds.
 */

import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { getEncoding } from 'js-tiktoken';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_INSTRUCTIONS, TOOL_GUIDES, toolName } from '../../lib/mcp/descriptions.js';
import { loadRouteSchemas, toSchema } from '../../lib/openapi.js';
import { ROUTES } from '../../lib/routes.js';
import { startFakeCrossref } from '../support/fake-crossref.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';

const crossref = await startFakeCrossref();
afterAll(() => crossref.close());
const harness = useService({ CROSSREF_BASE_URL: crossref.url });

async function connect(): Promise<Client> {
  const client = new Client({ name: 'mcp-tools-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${harness.service.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${TEST_CLIENT_KEY}` } },
  });
  await client.connect(transport);
  return client;
}

const textOf = (result: unknown) =>
  (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .map((part) => part.text ?? '')
    .join('\n');

/** Every (sub)schema of a JSON Schema, with where it is. */
function* schemas(node: unknown, where: string): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(node)) {
    for (const [i, inner] of node.entries()) yield* schemas(inner, `${where}[${i}]`);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  yield [where, schema];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const [name, inner] of Object.entries(value)) yield* schemas(inner, `${where}.${name}`);
    } else if (typeof value === 'object' && value !== null && key !== 'default' && key !== 'enum' && key !== 'const') {
      yield* schemas(value, `${where}/${key}`);
    }
  }
}

describe('MCP tool definitions', () => {
  it('are compact: tools/list within 24,000 characters, no pattern over 200 characters, no long code list', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(JSON.stringify(tools).length).toBeLessThanOrEqual(24_000);
    for (const tool of tools) {
      for (const [where, schema] of schemas(tool.inputSchema, tool.name)) {
        if (typeof schema.pattern === 'string') expect(schema.pattern.length, where).toBeLessThanOrEqual(200);
        if (Array.isArray(schema.enum)) expect(schema.enum.length, where).toBeLessThanOrEqual(30);
      }
    }
    // The code lists left out are said in words: a handful of categories and where to find the rest.
    const trends = tools.find((tool) => tool.name === 'alpha_trends');
    const properties = (trends?.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
    const category = properties.category;
    expect(category?.description).toMatch(/71 Food & Drink/);
    expect(category?.description).toMatch(/trends\.google\.com/);
    await client.close();
  });

  it('cost a model at most 250 tokens a tool (cl100k), with no sentence said twice', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const tokens = getEncoding('cl100k_base').encode(JSON.stringify({ tools })).length;
    expect(tokens / tools.length).toBeLessThanOrEqual(250);
    // What every tool shares is said once, in the server's instructions, not in each description.
    const sentences = tools.flatMap((tool) => (tool.description ?? '').split(/(?<=\.)\s+/).filter((s) => s.length > 20));
    const repeated = sentences.filter((sentence, i) => sentences.indexOf(sentence) !== i);
    expect(repeated).toEqual([]);
    for (const tool of tools) {
      expect(tool.description, tool.name).not.toMatch(/daily budget|control characters|\(API: POST/);
      // Each description says what a call costs, in the words the instructions define.
      expect(tool.description, tool.name).toMatch(/Cost \d|Free/);
    }
    expect(SERVER_INSTRUCTIONS).toMatch(/hourly, monthly and per-key daily budget/);
    expect(SERVER_INSTRUCTIONS).toMatch(/no_cache/);
    expect(SERVER_INSTRUCTIONS).toMatch(/control characters/);
    expect(Object.keys(TOOL_GUIDES).length).toBe(tools.length);
    await client.close();
  });

  it('are portable: no type arrays and no bare {} in any input or output schema', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    for (const tool of tools) {
      for (const [where, schema] of [
        ...schemas(tool.inputSchema, `${tool.name} in`),
        ...schemas(tool.outputSchema, `${tool.name} out`),
      ]) {
        expect(Array.isArray(schema.type), `${where}: type array`).toBe(false);
        expect(Object.keys(schema).length, `${where}: bare {}`).toBeGreaterThan(0);
      }
    }
    await client.close();
  });

  it('carry annotations on every tool and titles that name the engine', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    for (const tool of tools) {
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.openWorldHint, tool.name).toBe('boolean');
      // The spec reads destructiveHint and idempotentHint only when readOnlyHint is false: given only by the
      // tools that change something (a job started, a job stopped).
      const changing = ['jobs_submit', 'jobs_cancel'].includes(tool.name);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(!changing);
      if (changing) expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
      else expect(tool.annotations?.destructiveHint, tool.name).toBeUndefined();
    }
    const hints = (name: string) => tools.find((tool) => tool.name === name)?.annotations;
    expect(hints('jobs_submit')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(hints('jobs_cancel')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    const titles = Object.fromEntries(tools.map((tool) => [tool.name, tool.title ?? '']));
    expect(titles.web_search_alpha).toMatch(/Google/);
    expect(titles.web_search_bravo).toMatch(/DuckDuckGo/);
    expect(titles.web_search_charlie).toMatch(/Bing/);
    expect(titles.web_search_delta).toMatch(/Baidu/);
    expect(titles.cite_search).toMatch(/Google Scholar/);
    expect(titles.scholar_author).toMatch(/Google Scholar/);
    expect(titles.alpha_trends).toMatch(/Google Trends/);
    expect(titles.alpha_news).toMatch(/Google News/);
    expect(titles.alpha_images).toMatch(/Google Images/);
    await client.close();
  });

  it('still validate the rules the schema leaves out, naming the field', async () => {
    const client = await connect();
    const result = await client.callTool({
      name: 'alpha_trends',
      arguments: { queries: ['coffee'], geo: 'XX-NOPE', category: 2 },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/geo: /);
    expect(textOf(result)).toMatch(/category: /);
    expect(harness.upstream.calls()).toBe(0);
    await client.close();
  });
});

describe('MCP tool results as text', () => {
  it('a web search names every result', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'web_search_alpha', arguments: { q: 'coffee' } });
    const results = (result.structuredContent as { organic_results: { title: string; link: string }[] }).organic_results;
    expect(results.length).toBeGreaterThan(5);
    for (const item of results) {
      expect(textOf(result)).toContain(item.title);
      expect(textOf(result)).toContain(item.link);
    }
    await client.close();
  });

  it('a cite search carries every paper’s citation in the asked format, and its exports when asked', async () => {
    const client = await connect();
    const result = await client.callTool({
      name: 'cite_search',
      arguments: { query: 'bananas', results: 3, format: 'Harvard', export: ['bibtex', 'ris', 'csl-json'] },
    });
    const papers = (
      result.structuredContent as {
        papers: { citations: Record<string, string>; exports?: { bibtex?: string; ris?: string; csl_json?: unknown } }[];
      }
    ).papers;
    expect(papers.length).toBeGreaterThan(0);
    const text = textOf(result);
    for (const paper of papers) {
      expect(text).toContain(paper.citations.Harvard);
      expect(paper.exports?.bibtex).toBeTruthy();
      expect(text).toContain(paper.exports?.bibtex);
      expect(text).toContain(paper.exports?.ris);
      expect(text).toContain(JSON.stringify(paper.exports?.csl_json));
    }
    await client.close();
  });

  it('Google Trends carries its values', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'alpha_trends', arguments: { queries: ['coffee', 'tea'] } });
    const data = result.structuredContent as {
      interest_over_time: { timeline_data: { date: string; values: { formatted_value: string | null }[] }[] };
      interest_by_region: { location: string; values: { formatted_value: string | null }[] }[];
    };
    const text = textOf(result);
    const rows = [
      ...data.interest_over_time.timeline_data.map((p) => [p.date, p.values] as const),
      ...data.interest_by_region.map((r) => [r.location, r.values] as const),
    ];
    expect(rows.length).toBeGreaterThan(0);
    for (const [label, values] of rows) {
      const line = text.split('\n').find((l) => l.startsWith(label));
      expect(line, label).toBeDefined();
      expect(line).toContain(values.map((v) => v.formatted_value).join(' | '));
    }
    await client.close();
  });

  it('a scholar’s text carries name, affiliation and citation counts', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'scholar_author', arguments: { author_id: 'LSsXyncAAAAJ' } });
    const data = result.structuredContent as {
      author: { name: string; affiliations: string };
      cited_by: { citations: { all: number }; h_index: { all: number }; i10_index: { all: number } };
    };
    const text = textOf(result);
    expect(text).toContain(data.author.name);
    expect(text).toContain(data.author.affiliations);
    expect(text).toContain(`citations: {all: ${data.cited_by.citations.all}`);
    expect(text).toContain(`h_index: {all: ${data.cited_by.h_index.all}`);
    expect(text).toContain(`i10_index: {all: ${data.cited_by.i10_index.all}`);
    await client.close();
  });
});

describe('the MCP guide (docs/mcp.md)', () => {
  const guide = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');

  it('lists the server’s tools, each with its endpoint and the cost its description gives', async () => {
    const table = guide.slice(guide.indexOf('<!-- mcp-tools:start'), guide.indexOf('<!-- mcp-tools:end'));
    const rows = [...table.matchAll(/^\| `(\w+)` +\| `(\/[^`]+)`[^|]*\| ([^|]+)\|$/gm)].map(([, tool, path, cost]) => ({
      tool,
      path,
      cost: (cost ?? '').trim(),
    }));
    const client = await connect();
    const { tools } = await client.listTools();
    await client.close();
    expect(rows.map((row) => row.tool).sort()).toEqual(tools.map((tool) => tool.name).sort());
    for (const route of ROUTES) {
      const row = rows.find((r) => r.tool === toolName(route.name));
      expect(row?.path, route.name).toBe(route.path);
      const description = tools.find((tool) => tool.name === toolName(route.name))?.description ?? '';
      const cost = /\bCost (\d+)/.exec(description)?.[1] ?? (/\bFree\b/.test(description) ? '0' : undefined);
      expect(row?.cost.split(' ')[0], route.name).toBe(cost);
    }
    // The default the table gives for profiles' enrich is the request schema's.
    const profiles = ROUTES.find((route) => route.name === 'scholar-profiles');
    if (profiles) {
      const schema = toSchema((await loadRouteSchemas(profiles)).requestSchema, 'input', profiles.path) as {
        properties: { enrich: { default: number } };
      };
      expect(rows.find((row) => row.tool === 'scholar_profiles')?.cost).toContain(`default ${schema.properties.enrich.default}`);
    }
  });

  it('gives the tool list’s tokens a tool as measured', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    await client.close();
    const perTool = Math.round(getEncoding('cl100k_base').encode(JSON.stringify({ tools })).length / tools.length);
    expect(guide.replace(/\s+/g, ' ')).toContain(`about ${perTool} cl100k tokens a tool`);
  });
});
