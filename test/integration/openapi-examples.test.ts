/**
 * Every operation of the OpenAPI document carries an example body that a person would send: the docs
 * page's "Try it out" fills it in, and against a deployment each press is a paid search. Each example must
 * be valid by the document, accepted by the server, and answered 200 (202 for a job's submission) over real HTTP.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type JsonObject } from '../../lib/openapi.js';
import { REQUEST_EXAMPLES } from '../../lib/openapi-examples.js';
import { ROUTES } from '../../lib/routes.js';
import { withJob } from '../support/jobs.js';
import { type JsonSchema, violations } from '../support/json-schema-cases.js';
import { useService } from '../support/service.js';

const harness = useService();

// biome-ignore lint/suspicious/noExplicitAny: the test walks the document's JSON freely
let document: any;

beforeAll(async () => {
  document = await buildOpenApiDocument();
});

/** The operation's examples and its request schema, with the one level of $ref the document uses. */
function operation(path: string): { examples: Record<string, { summary?: string; value?: unknown }>; schema: JsonSchema } {
  const content = document.paths[path].post.requestBody.content['application/json'];
  const name = String(content.schema.$ref).replace('#/components/schemas/', '');
  return { examples: content.examples ?? {}, schema: document.components.schemas[name] as JsonSchema };
}

/** Every string in a value: an example made of words, not of generated noise such as "   }   ". */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

describe.each(ROUTES.map((route) => [route.path, route] as const))('the example body of POST %s', (path, route) => {
  it('is in the document, with a summary, and is the one lib/openapi-examples.ts gives', () => {
    const { examples } = operation(path);
    const [example, ...others] = Object.values(examples);
    expect(example, `add an example for ${route.name} to lib/openapi-examples.ts`).toBeDefined();
    expect(others).toEqual([]);
    expect(example?.summary).toMatch(/\w{3}/);
    expect(example?.value).toEqual(REQUEST_EXAMPLES[route.name]?.value);
  });

  it('is valid by the document, made of trimmed words', () => {
    const { examples, schema } = operation(path);
    const value = Object.values(examples)[0]?.value;
    expect(value).toBeTypeOf('object');
    expect(violations(schema, value)).toEqual([]);
    for (const text of strings(value)) expect(text, 'an example string').toMatch(/^\S(.*\S)?$/u);
    // A body with fields gets words in them; an endpoint without fields (usage) sends {}.
    const fields = Object.keys((schema.properties ?? {}) as object).filter((name) => name !== 'no_cache');
    expect(
      strings(value).some((text) => /\p{L}{2}/u.test(text)),
      'at least one word',
    ).toBe(fields.length > 0);
  });

  it('is answered with its success status by the server (200; 202 for a job)', async () => {
    const value = Object.values(operation(path).examples)[0]?.value as JsonObject;
    // The examples of the routes that read a job name a stand-in: here, a job the submission's example made.
    const job =
      value.job_id === undefined
        ? undefined
        : (await harness.service.post('/v1/jobs', REQUEST_EXAMPLES['jobs-submit']?.value)).json.data.job_id;
    const reply = await harness.service.post(path, withJob(value, job));
    const route = ROUTES.find((known) => known.path === path);
    expect(reply.status, reply.text).toBe(route?.successStatus ?? 200);
    expect(reply.json.success).toBe(true);
  });
});
