/**
 * A client generated from the OpenAPI document (openapi-typescript types, openapi-fetch calls) against the
 * local server: what a user of the document gets. `tsc` checks every call below against the generated
 * types, so a document that names a field, a path or an answer differently fails the typecheck.
 */
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../lib/openapi.js';
import { ROUTES } from '../../lib/routes.js';
import type { paths } from '../client/api.js';
import { CLIENT_TYPES_FILE, clientTypes } from '../client/generate.js';
import { TEST_CLIENT_KEY, useService } from '../support/service.js';

const harness = useService();

function client() {
  return createClient<paths>({ baseUrl: harness.service.url, headers: { Authorization: `Bearer ${TEST_CLIENT_KEY}` } });
}

interface Answer {
  status: number;
  success: boolean | undefined;
  message: string | undefined;
}

async function answer(call: Promise<{ data?: { success: boolean; message: string }; response: Response }>): Promise<Answer> {
  const { data, response } = await call;
  return { status: response.status, success: data?.success, message: data?.message };
}

/** One call per path of the document; the Record type makes a missing or extra path a type error. */
const CALLS: Record<keyof paths, () => Promise<Answer>> = {
  '/v1/web-search/alpha': () => answer(client().POST('/v1/web-search/alpha', { body: { q: 'coffee', num: 5 } })),
  '/v1/web-search/bravo': () => answer(client().POST('/v1/web-search/bravo', { body: { q: 'coffee', safe_search: 'moderate' } })),
  '/v1/web-search/charlie': () => answer(client().POST('/v1/web-search/charlie', { body: { q: 'coffee', page: 1 } })),
  '/v1/web-search/delta': () => answer(client().POST('/v1/web-search/delta', { body: { q: '咖啡', ct: 'simplified' } })),
  '/v1/cite/search': () => answer(client().POST('/v1/cite/search', { body: { query: 'machine learning', results: 5 } })),
  '/v1/cite/resolve': () =>
    answer(client().POST('/v1/cite/resolve', { body: { references: ['10.1111/ele.14024'], styles: ['nature'] } })),
  '/v1/cite/check': () =>
    answer(client().POST('/v1/cite/check', { body: { references: ['10.1111/ele.14024'], export: ['bibtex'] } })),
  '/v1/cite/styles': () => answer(client().POST('/v1/cite/styles', { body: { query: 'nature', results: 3 } })),
  '/v1/alpha/scholar/profiles': () => answer(client().POST('/v1/alpha/scholar/profiles', { body: { query: 'mike' } })),
  '/v1/alpha/scholar/author': () =>
    answer(client().POST('/v1/alpha/scholar/author', { body: { author_id: 'LSsXyncAAAAJ', sort: 'cited' } })),
  '/v1/alpha/scholar/author-citation': () =>
    answer(client().POST('/v1/alpha/scholar/author-citation', { body: { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C' } })),
  '/v1/alpha/trends': () => answer(client().POST('/v1/alpha/trends', { body: { queries: ['coffee'] } })),
  '/v1/alpha/news': () => answer(client().POST('/v1/alpha/news', { body: { q: 'coffee' } })),
  '/v1/alpha/images': () => answer(client().POST('/v1/alpha/images', { body: { q: 'coffee', size: 'large' } })),
  '/v1/usage': () => answer(client().POST('/v1/usage', { body: {} })),
  '/v1/jobs': () =>
    answer(
      client().POST('/v1/jobs', {
        body: { kind: 'resolve', references: ['10.1111/ele.14024'], options: { styles: ['nature'] } },
        params: { header: { 'Idempotency-Key': `generated-client-${Date.now()}` } },
      }),
    ),
  '/v1/jobs/status': async () => answer(client().POST('/v1/jobs/status', { body: { job_id: await newJob() } })),
  '/v1/jobs/results': async () => answer(client().POST('/v1/jobs/results', { body: { job_id: await newJob(), limit: 10 } })),
  '/v1/jobs/cancel': async () => answer(client().POST('/v1/jobs/cancel', { body: { job_id: await newJob() } })),
};

/** A job of this key's, through the client: its id, typed as the document gives it. */
async function newJob(): Promise<string> {
  const { data } = await client().POST('/v1/jobs', { body: { kind: 'resolve', bibliography: '10.1111/ele.14024' } });
  return data?.data.job_id ?? 'no job was made';
}

describe('the client generated from the OpenAPI document', () => {
  it('is generated from the current document (run `npm run client:types` after `npm run openapi`)', async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    expect(committed, 'test/client/api.d.ts is stale: run `npm run client:types`').toBe(
      await clientTypes(await buildOpenApiDocument()),
    );
  });

  it('has a call for every route', () => {
    expect(Object.keys(CALLS).sort()).toEqual(ROUTES.map((route) => route.path).sort());
  });

  it.each(ROUTES.map((route) => [route.path, route] as const))('answers success: true on %s', async (path, route) => {
    const call = CALLS[path as keyof paths];
    const reply = await call();
    expect(reply, path).toMatchObject({ status: route.successStatus ?? 200, success: true });
  });

  it('reads typed data and typed errors', async () => {
    const ok = await client().POST('/v1/web-search/alpha', { body: { q: 'coffee', num: 3 } });
    expect(ok.data?.data.organic_results.length).toBeLessThanOrEqual(3);
    expect(ok.data?.data.organic_results[0]?.rank).toBe(1);

    // The types refuse what the server refuses: a string where the document says integer.
    // @ts-expect-error num is an integer in the document
    const refused = await client().POST('/v1/web-search/alpha', { body: { q: 'coffee', num: '3' } });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.error.code).toBe('INVALID_REQUEST');
    expect(refused.error?.error.details).toMatch(/^num: /);
  });
});
