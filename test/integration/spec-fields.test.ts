/**
 * Every request field the API's field tables name (docs/decisions.md §4, copied into
 * test/fixtures/spec-fields.ts) is accepted on its endpoint: a body with a plausible value for each answers
 * 200 over real HTTP. A field removed from a schema (as `country` once was) makes its endpoint answer 400
 * "unknown field" here.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../lib/routes.js';
import { SPEC_BODIES, SPEC_FIELDS, type SpecPath } from '../fixtures/spec-fields.js';
import { startFakeCrossref } from '../support/fake-crossref.js';
import { useService } from '../support/service.js';

// Citation search looks papers up in Crossref; the fake answers at once instead of an unreachable host.
const crossref = await startFakeCrossref();
afterAll(() => crossref.close());
const harness = useService({ CROSSREF_BASE_URL: crossref.url });
const PATHS = Object.keys(SPEC_FIELDS) as SpecPath[];

describe('the field tables’ endpoints and fields', () => {
  it('names 11 endpoints, and the service routes every one of them', () => {
    expect(PATHS).toHaveLength(11);
    const routed = new Set(ROUTES.map((route) => route.path));
    expect(PATHS.filter((path) => !routed.has(path))).toEqual([]);
  });

  it.each(PATHS)('%s: the sample bodies carry every field the field tables name', (path) => {
    const sent = new Set(SPEC_BODIES[path].flatMap((body) => Object.keys(body)));
    expect(SPEC_FIELDS[path].filter((field) => !sent.has(field))).toEqual([]);
  });

  it.each(PATHS)('%s: answers 200 to a body with every spec field', async (path) => {
    for (const body of SPEC_BODIES[path]) {
      const reply = await harness.service.post(path, body);
      expect(reply.status, `${JSON.stringify(body)} → ${reply.text.slice(0, 300)}`).toBe(200);
      expect(reply.json.success).toBe(true);
    }
  });
});
