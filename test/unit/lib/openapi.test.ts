import { readFileSync } from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../../lib/errors.js';
import {
  buildOpenApiDocument,
  ENDPOINT_ERROR_CODES,
  type JsonObject,
  OPENAPI_FILE,
  ROUTE_ONLY_CODES,
  renderOpenApi,
  routeErrorCodes,
} from '../../../lib/openapi.js';
import { ROUTES } from '../../../lib/routes.js';

// biome-ignore lint/suspicious/noExplicitAny: the test walks the document's JSON freely
let document: any;

beforeAll(async () => {
  document = await buildOpenApiDocument();
});

/** A component schema by the name a $ref points at. */
function resolve(schema: JsonObject): JsonObject {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  return document.components.schemas[ref.replace('#/components/schemas/', '')];
}

describe('openapi.json', () => {
  it('is the document the schemas generate (run `npm run openapi` after changing a schema or a route)', () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    expect(committed, 'openapi.json is stale: run `npm run openapi` and commit the result').toBe(renderOpenApi(document));
  });

  it('is valid OpenAPI 3.1 according to @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('fails validation when a response is broken, so the check above can fail', async () => {
    const broken = structuredClone(document);
    broken.paths[ROUTES[0]?.path ?? ''].post.responses['200'].content = 'not an object';
    expect((await validate(broken)).valid).toBe(false);
  });
});

describe('the generated document', () => {
  it('has one POST operation per route, with its summary, tag and a unique operationId', () => {
    expect(Object.keys(document.paths).sort()).toEqual(ROUTES.map((r) => r.path).sort());
    const ids = new Set<string>();
    for (const route of ROUTES) {
      const operation = document.paths[route.path].post;
      expect(Object.keys(document.paths[route.path])).toEqual(['post']);
      expect(operation).toMatchObject({ summary: route.summary, tags: [route.tag] });
      ids.add(operation.operationId);
    }
    expect(ids.size).toBe(ROUTES.length);
  });

  it('documents request bodies with their limits, defaults, enums and no unknown fields', () => {
    const alpha = resolve(document.paths['/v1/web-search/alpha'].post.requestBody.content['application/json'].schema);
    expect(alpha).toMatchObject({
      type: 'object',
      required: ['q'],
      additionalProperties: false,
      properties: {
        q: { type: 'string', minLength: 1, maxLength: 2048, pattern: expect.stringMatching(/^\^/) },
        page: { type: 'integer', minimum: 0, maximum: 99, default: 0 },
        num: { type: 'integer', minimum: 1, maximum: 10, default: 10 },
      },
    });
    const bravo = resolve(document.paths['/v1/web-search/bravo'].post.requestBody.content['application/json'].schema);
    expect(bravo).toMatchObject({ properties: { date: { enum: ['day', 'week', 'month', 'year'] } } });
  });

  it('documents each success as the envelope around the data schema of lib/contract', () => {
    for (const route of ROUTES) {
      const success = resolve(
        document.paths[route.path].post.responses[String(route.successStatus ?? 200)].content['application/json'].schema,
      );
      expect(success).toMatchObject({
        required: ['success', 'message', 'data'],
        properties: { success: { const: true }, message: { type: 'string' } },
      });
      const data = resolve((success.properties as Record<string, JsonObject>).data as JsonObject);
      expect(data, route.path).toMatchObject({ type: 'object' });
    }
    const charlie = resolve(document.components.schemas.WebSearchCharlieSuccess.properties.data);
    expect(charlie.required).toEqual(['charlie_data', 'related_searches', 'pagination']);
  });

  it('answers every error code but NOT_FOUND on every endpoint, and the job codes on the job routes alone, under the status of lib/errors.ts', () => {
    for (const route of ROUTES) {
      const operation = document.paths[route.path].post;
      const codes = routeErrorCodes(route);
      expect(operation['x-error-codes']).toEqual(codes);
      const documented: ErrorCode[] = [];
      for (const [status, response] of Object.entries<JsonObject>(operation.responses)) {
        if (status === String(route.successStatus ?? 200)) continue;
        const component = document.components.responses[String(response.$ref).replace('#/components/responses/', '')];
        const listed: ErrorCode[] = component.content['application/json'].schema.properties.error.properties.code.enum;
        for (const code of listed) {
          expect(ERROR_CODES[code].status, code).toBe(Number(status));
          expect(component.content['application/json'].examples[code].value.error.code).toBe(code);
        }
        documented.push(...listed);
      }
      expect(documented.sort(), route.name).toEqual([...codes].sort());
    }
    expect(Object.keys(ERROR_CODES).filter((code) => !ENDPOINT_ERROR_CODES.includes(code as ErrorCode))).toEqual(['NOT_FOUND']);
    // The job codes: each answered by the job routes that name it, and by no other route.
    for (const [code, names] of Object.entries(ROUTE_ONLY_CODES)) {
      const answering = ROUTES.filter((route) => routeErrorCodes(route).includes(code as ErrorCode)).map((route) => route.name);
      expect(answering, code).toEqual(names);
    }
    expect(routeErrorCodes({ name: 'web-search-alpha' })).not.toContain('JOB_NOT_FOUND');
    // Every code of a status: the component the description's error table matches (404: a path or a job unknown).
    expect(
      document.components.responses.Error404.content['application/json'].schema.properties.error.properties.code.enum,
    ).toEqual(['NOT_FOUND', 'JOB_NOT_FOUND']);
  });

  it('lists every error code with its status in the description and in the ErrorCode schema', () => {
    expect(document.components.schemas.ErrorCode.enum).toEqual(Object.keys(ERROR_CODES));
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(document.info.description).toContain(`| \`${code}\` | ${status} |`);
    }
  });

  it('names the headers that come with some errors', () => {
    const { responses } = document.components;
    expect(Object.keys(responses.Error401.headers)).toContain('WWW-Authenticate');
    expect(Object.keys(responses.Error405.headers)).toContain('Allow');
    expect(Object.keys(responses.Error429.headers)).toContain('Retry-After');
    expect(Object.keys(responses.Error503.headers)).toContain('Retry-After');
    for (const response of Object.values<JsonObject>(responses))
      expect(Object.keys(response.headers as object)).toContain('X-Request-Id');
  });

  it('requires the Bearer scheme on every operation', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    for (const route of ROUTES) expect(document.paths[route.path].post.security).toBeUndefined();
  });

  it('embeds no $schema and no ±2^53 integer bounds', () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain('"$schema"');
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });
});
