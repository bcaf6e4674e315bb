import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { PAID_CALLS_PER_REQUEST } from '../../infra/budget.js';
import { loadRouteSchemas } from '../../lib/openapi.js';
import { ROUTES } from '../../lib/routes.js';
import { SAMPLE_REQUESTS } from '../fixtures/sample-requests.js';
import { sampleBody } from '../support/jobs.js';
import { useService } from '../support/service.js';

const harness = useService();

/** Parses data with the schema; the result must equal data, so a field the schema does not name fails too. */
function expectConforms(schema: z.ZodMiniType, data: unknown, where: string): void {
  const parsed = schema.safeParse(data);
  const issues = parsed.success
    ? ''
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(data)'}: ${issue.message}`).join('\n');
  expect(parsed.success, `${where} does not match its responseSchema:\n${issues}`).toBe(true);
  expect(parsed.data, `${where} holds fields its responseSchema does not document`).toEqual(data);
}

describe('every handler has a route and a response contract', () => {
  const handlers = readdirSync(new URL('../../functions', import.meta.url))
    // functions/mcp.ts serves POST /mcp, whose tools are the routes themselves, and functions/authorizer.ts is
    // the gateway's key check before every route: neither is a route of its own.
    // functions/jobs-worker.ts works on the jobs' queue: no client calls it.
    .filter((file) => file.endsWith('.ts') && !['mcp.ts', 'authorizer.ts', 'jobs-worker.ts'].includes(file))
    .map((file) => file.slice(0, -'.ts'.length));
  const contracts = new Set(readdirSync(new URL('../../lib/contract', import.meta.url)).map((file) => file.replace(/\.ts$/, '')));

  it.each(handlers)('functions/%s.ts has a route in lib/routes.ts and a lib/contract file', (name) => {
    expect(
      ROUTES.map((route) => route.name),
      `${name} is not in ROUTES`,
    ).toContain(name);
    expect(contracts.has(name), `lib/contract/${name}.ts is missing`).toBe(true);
  });

  it.each(ROUTES.map((route) => route.name))('%s has a sample request in this test', (name) => {
    expect(SAMPLE_REQUESTS[name], `add a request for ${name} to SAMPLE_REQUESTS`).toBeDefined();
  });
});

describe.each(ROUTES.map((route) => [route.path, route] as const))('POST %s', (_path, route) => {
  it(`answers the recorded sample with data that lib/contract/${route.name}.ts describes exactly`, async () => {
    const { responseSchema } = await loadRouteSchemas(route);
    const reply = await harness.service.post(route.path, await sampleBody(harness.service, route.name));
    expect(reply.status, reply.text).toBe(route.successStatus ?? 200);
    // /v1/usage reads the budget's counter and makes no paid call (its cost in infra/budget.ts is 0).
    if (PAID_CALLS_PER_REQUEST[route.name] !== 0) {
      expect(harness.upstream.calls(), 'the sample request must reach the upstream').toBeGreaterThan(0);
    }
    expectConforms(responseSchema, reply.json.data, `${route.path} data`);
  });

  it('answers an upstream "no results" with data that still matches the contract', async () => {
    const { responseSchema } = await loadRouteSchemas(route);
    harness.upstream.respond(() => 'noResults');
    const reply = await harness.service.post(route.path, await sampleBody(harness.service, route.name));
    expect(reply.status, reply.text).toBe(route.successStatus ?? 200);
    expectConforms(responseSchema, reply.json.data, `${route.path} data (no results)`);
  });
});

describe('the web-search contracts', () => {
  it('accept an upstream answer that omits every optional field', async () => {
    harness.upstream.respond(() => ({ json: { search_metadata: { status: 'Success' }, organic_results: [{}] } }));
    for (const route of ROUTES.filter((r) => r.tag === 'Web search')) {
      const { responseSchema } = await loadRouteSchemas(route);
      const reply = await harness.service.post(route.path, SAMPLE_REQUESTS[route.name]);
      expect(reply.status, reply.text).toBe(200);
      expectConforms(responseSchema, reply.json.data, `${route.path} data (sparse answer)`);
    }
  });
});
