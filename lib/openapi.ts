/**
 * The OpenAPI 3.1 document, generated from the code that enforces the contract: each route's request
 * schema (functions/<name>.ts `requestSchema`, the one the validation middleware runs), its success data
 * schema (lib/contract/<name>.ts `responseSchema`, which a test holds against the handler's real output)
 * and the error table of lib/errors.ts. zod writes the JSON Schemas (draft 2020-12, which OpenAPI 3.1
 * uses), so the document cannot say something the service does not do.
 */
import * as z from 'zod/mini';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_HOURS, IDEMPOTENCY_KEY_MAX } from './contract/jobs.js';
import { ERROR_CODES, type ErrorCode } from './errors.js';
import { MAX_BODY_BYTES } from './middleware/body.js';
import { REQUEST_EXAMPLES } from './openapi-examples.js';
import { bodyLimit, ROUTES, type Route } from './routes.js';
import { WELL_FORMED_RULE } from './schema.js';
import { API_VERSION } from './version.js';

export type JsonObject = Record<string, unknown>;

/** When each code is answered, an example of its details, and the headers that come with it. */
const ERROR_DOCS: Record<ErrorCode, { when: string; example: string; headers?: readonly ResponseHeader[] }> = {
  MALFORMED_JSON: { when: 'The body is not valid JSON.', example: 'body: is not valid JSON' },
  INVALID_REQUEST: {
    when:
      'The body is not a JSON object, or has an unknown field, a missing required field, a wrong type, a value out of ' +
      'range or in a bad format. `details` names every offending field and its rule.',
    example: 'num: must be an integer from 1 to 100; foo: unknown field',
  },
  UNAUTHORIZED: {
    when: 'The Authorization header is missing or malformed, or the key is unknown. One answer for every case.',
    example: 'Send the header "Authorization: Bearer <API key>" with a valid key',
    headers: ['WWW-Authenticate'],
  },
  NOT_FOUND: {
    when: 'No endpoint at this path (answered for any path this document does not list).',
    example: 'No endpoint at /v1/nothing; every endpoint is a POST under /v1',
  },
  JOB_NOT_FOUND: {
    when:
      'No job with this `job_id` for the calling key: it never was, it has expired (after 7 days unless configured), or ' +
      'another key made it (a job is readable only with the key that made it, and to any other is answered as unknown).',
    example: 'job_id: no job job_4w2kq7mb3c5d6e7f8g2h3i4j5k for this key (jobs expire after their time)',
  },
  JOB_NOT_FINISHED: {
    when: 'A job’s results were asked for as one list (`format`) before the job ended. Its pages can be read meanwhile.',
    example: 'format: the job is running (120 of 10000 answered); a list in a format is made once it has ended',
  },
  IDEMPOTENCY_KEY_REUSED: {
    when:
      'An `Idempotency-Key` that made a job in the last 24 hours was sent with another body. The same key and body give ' +
      'the job back (202); a new job needs a new key.',
    example: 'Idempotency-Key: this key made job job_4w2kq7mb3c5d6e7f8g2h3i4j5k with another body in the last 24 hours',
  },
  METHOD_NOT_ALLOWED: {
    when: 'A method other than POST. Checked before authentication.',
    example: 'GET is not allowed here; use POST',
    headers: ['Allow'],
  },
  PAYLOAD_TOO_LARGE: {
    when: `The body is over ${MAX_BODY_BYTES / 1024} KiB (${MAX_BODY_BYTES} bytes), or over the larger limit its endpoint's request body states.`,
    example: `body: must be at most ${MAX_BODY_BYTES} bytes (got 20000)`,
  },
  UNSUPPORTED_MEDIA_TYPE: {
    when: 'A Content-Type other than application/json (any charset) was sent. An absent Content-Type is accepted.',
    example: 'Content-Type: must be application/json',
  },
  RATE_LIMITED: {
    when:
      'The gateway’s flood guard (one rate for the whole API stage) or, where deployed with it, WAF’s per-IP rule ' +
      'refused the request. Retry after `Retry-After`. The spending budget answers `BUDGET_EXHAUSTED` instead.',
    example: ERROR_CODES.RATE_LIMITED.message,
    headers: ['Retry-After'],
  },
  BUDGET_EXHAUSTED: {
    when:
      'The team’s search budget cannot cover this request’s paid searches: the deployment’s searches this hour ' +
      'or this month, or the calling key’s own hourly or daily limit, or its share of the deployment’s hour or day ' +
      '(half of each, when several keys share the deployment and the key sets no limit of its own). `details` names ' +
      'which; `Retry-After` is the seconds until that window resets (while the budget’s counter cannot be reached and ' +
      'a container’s own allowance is used up, the seconds until the counter is tried again; while the window is full ' +
      'of reservations of requests still in progress, about how long such a request takes, and `details` says by when ' +
      'they are given back at the latest). A request that can make several paid searches (trends, profiles ' +
      'with `enrich`, citation search from the index) reserves them all before the first, so it is refused whole, ' +
      'before any is made, and `details` says how to ask for fewer. Answers from the cache are never counted; ' +
      '`POST /v1/usage` shows where the budget stands.',
    example: 'The deployment’s budget of 500 searches this hour is used up; it resets at 2026-11-23T22:00:00Z',
    headers: ['Retry-After'],
  },
  BUDGET_UNAVAILABLE: {
    when:
      'The budget’s counter could not be reached after two attempts: a paid search is refused when the deployment is set ' +
      'to refuse rather than search uncounted (`budgetFailClosed`; by default it searches on, within the counts the ' +
      'container last heard and its own allowance), or when the calling key has an hourly or daily limit of its own, ' +
      'which no container can keep without the counter; `POST /v1/usage` is refused in either mode. `Retry-After`: ' +
      'when the counter is tried again.',
    example: 'The search budget could not be checked; retry shortly',
    headers: ['Retry-After'],
  },
  UPSTREAM_QUOTA_EXCEEDED: {
    when:
      'The search provider refused for rate, after retries (`Retry-After` when the provider said when), or because the ' +
      'service’s plan there is used up: answered at once, without retries, and `details` says so.',
    example: 'The search provider refused the request for rate or quota',
    headers: ['Retry-After'],
  },
  UPSTREAM_ERROR: {
    when:
      'The search provider failed: a 5xx, an answer that is not JSON or is malformed, or no connection, after retries; ' +
      'or it reported an error for this query. A search that simply finds nothing is a success with empty arrays.',
    example: 'The search provider answered HTTP 502',
  },
  UPSTREAM_ENGINE_RETIRED: {
    when:
      'The search provider answered that it has retired (discontinued, deprecated) the engine behind this endpoint. ' +
      'Retrying cannot help: stop calling the endpoint until the service is updated. `details` quotes the provider.',
    example:
      'The search provider has retired the engine this endpoint uses (The search provider reported an error: This engine is discontinued)',
  },
  UPSTREAM_TIMEOUT: {
    when: 'The search provider did not answer within the request’s deadline (well below the gateway’s 29 s).',
    example: 'The search provider did not answer within the deadline',
  },
  SERVICE_MISCONFIGURED: {
    when: 'The service’s upstream key is missing or was rejected, or a secret is unreadable. Its operator must act.',
    example: 'The service could not read its credentials; its operator must check the deployment',
  },
  SERVICE_UNAVAILABLE: {
    when:
      'The store the service reads its credentials from (Secrets Manager) did not answer in time, or answered that it ' +
      'cannot now. Nothing is wrong with the key sent (a key that cannot be checked is never answered 401): retry ' +
      'after `Retry-After`.',
    example: 'The service could not read its credentials in time (its secret store did not answer); retry in 3 s',
    headers: ['Retry-After'],
  },
  INTERNAL_ERROR: {
    when: 'Anything unexpected. `details` says only that, with the request id to quote.',
    example: 'Unexpected error; quote request id 8d0c5e52-3a1f-4c55-9b1e-0f6f2d7a4b19 when reporting it',
  },
};

type ResponseHeader = 'WWW-Authenticate' | 'Allow' | 'Retry-After';

/** The header that makes a job's submission idempotent (docs/decisions.md §27). */
const IDEMPOTENCY_PARAMETER: JsonObject = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    `Any 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters of the client's choice: the same key with the same body ` +
    `within ${IDEMPOTENCY_HOURS} hours gives back the job it made (\`replayed: true\`) instead of a second; with another body, 422 \`IDEMPOTENCY_KEY_REUSED\`.`,
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: '^[!-~]+$' },
};

const HEADERS: Record<ResponseHeader | 'X-Request-Id' | 'X-Api-Version', JsonObject> = {
  'X-Request-Id': {
    description: 'This request’s id, on every response; quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  'X-Api-Version': {
    description: 'The version of the API that answered (semantic versioning; `info.version`), on every response.',
    schema: { type: 'string', pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+' },
  },
  'WWW-Authenticate': { description: 'Always `Bearer`.', schema: { type: 'string', const: 'Bearer' } },
  Allow: { description: 'Always `POST`.', schema: { type: 'string', const: 'POST' } },
  'Retry-After': {
    description: 'Seconds to wait before retrying, when known.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
};

/** Every code an endpoint can answer: all of them but NOT_FOUND, which is for paths that are no endpoint. */
export const ENDPOINT_ERROR_CODES: readonly ErrorCode[] = (Object.keys(ERROR_CODES) as ErrorCode[]).filter(
  (code) => code !== 'NOT_FOUND',
);

/** Codes only some endpoints answer, with the routes (by name) that do: the job routes' own. */
export const ROUTE_ONLY_CODES: Readonly<Partial<Record<ErrorCode, readonly string[]>>> = {
  JOB_NOT_FOUND: ['jobs-status', 'jobs-results', 'jobs-cancel'],
  JOB_NOT_FINISHED: ['jobs-results'],
  IDEMPOTENCY_KEY_REUSED: ['jobs-submit'],
};

/** The codes one endpoint can answer. */
export function routeErrorCodes(route: Pick<Route, 'name'>): ErrorCode[] {
  return ENDPOINT_ERROR_CODES.filter((code) => ROUTE_ONLY_CODES[code]?.includes(route.name) ?? true);
}

/**
 * The name of the response component for these codes of one status: `Error<status>` when they are every
 * code of that status, else the codes' names after it (`Error404JobNotFound`).
 */
function errorResponseName(status: number, codes: readonly ErrorCode[]): string {
  const all = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].status === status);
  if (all.length === codes.length) return `Error${status}`;
  return `Error${status}${codes.map((code) => pascalCase(code.toLowerCase().replaceAll('_', '-'))).join('')}`;
}

/** A route's codes by status, in status order. */
function codesByStatus(codes: readonly ErrorCode[]): [number, ErrorCode[]][] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  return [...byStatus].sort(([a], [b]) => a - b);
}

const TAG_DESCRIPTIONS: Record<Route['tag'], string> = {
  'Web search': 'One endpoint per engine: alpha, bravo, charlie, and delta for Chinese-language queries.',
  'Alpha services': 'Scholarly profiles, authors and citations, trends, news and images.',
  'Citation search': 'Papers from a scholarly index, each with up to five formatted citations.',
  Jobs:
    'Lists of up to 10,000 references worked on in the background: submitted (202), followed (status), read page by page ' +
    'or as one BibTeX, RIS or CSL-JSON list (results), stopped (cancel). A job is its key’s alone and expires after 7 days.',
  Usage: 'Where the search budget stands: the deployment’s hour and month, and the calling key’s day. Makes no paid search.',
};

/** The two schemas of one route, as the generator and the contract test load them. */
export interface RouteSchemas {
  route: Route;
  requestSchema: z.ZodMiniType;
  responseSchema: z.ZodMiniType;
}

function isSchema(value: unknown): value is z.ZodMiniType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/**
 * Imports `requestSchema` from functions/<name>.ts and `responseSchema` from lib/contract/<name>.ts.
 * A route without either fails loudly: an endpoint is not done until its contract is written.
 * Importing a handler reads the service's configuration, so the environment must be settled first.
 */
export async function loadRouteSchemas(route: Route): Promise<RouteSchemas> {
  const handler = (await import(`../functions/${route.name}.ts`)) as { requestSchema?: unknown };
  let contract: { responseSchema?: unknown };
  try {
    contract = (await import(`./contract/${route.name}.ts`)) as { responseSchema?: unknown };
  } catch (error) {
    throw new Error(`${route.path}: lib/contract/${route.name}.ts could not be loaded; every route needs one`, {
      cause: error,
    });
  }
  if (!isSchema(handler.requestSchema)) throw new Error(`${route.path}: functions/${route.name}.ts exports no requestSchema`);
  if (!isSchema(contract.responseSchema)) {
    throw new Error(`${route.path}: lib/contract/${route.name}.ts exports no responseSchema`);
  }
  return { route, requestSchema: handler.requestSchema, responseSchema: contract.responseSchema };
}

/** The document for every route of lib/routes.ts. */
export async function buildOpenApiDocument(routes: readonly Route[] = ROUTES): Promise<JsonObject> {
  return openApiDocument(await Promise.all(routes.map(loadRouteSchemas)));
}

/** Where the committed document lives: openapi.json at the repository root. */
export const OPENAPI_FILE = new URL('../openapi.json', import.meta.url);

// Spaces other than the ASCII one, which the patterns spell as characters (lib/schema.ts): written as JSON
// escapes, the same string to a parser, so that a reader of the file sees them.
const INVISIBLE = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g;

/** The document's text as openapi.json holds it. */
export function renderOpenApi(document: JsonObject): string {
  const json = JSON.stringify(document, null, 2).replace(
    INVISIBLE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `${json}\n`;
}

/** web-search-alpha → WebSearchAlpha, the stem of the route's component names. */
function pascalCase(name: string): string {
  return name.replace(/(^|[-_])([a-z0-9])/g, (_, _sep: string, c: string) => c.toUpperCase());
}

function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/**
 * zod's JSON Schema, made fit to sit inside the document: no `$schema` (the document's dialect applies),
 * no ±2^53 bounds (zod's "safe integer" range, true of every integer and only noise to a reader), and
 * patterns in the one spelling every regex engine reads (see `portablePattern`).
 */
export function toSchema(schema: z.ZodMiniType, io: 'input' | 'output', where: string): JsonObject {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as JsonObject;
  if ('$defs' in json) {
    // Local $defs would resolve against the document root, not the schema; keep schemas inline.
    throw new Error(`${where}: the schema has shared or recursive parts ($defs); inline them`);
  }
  delete json.$schema;
  return tidy(json) as JsonObject;
}

/**
 * A pattern as zod gives it (a RegExp's `source`, which writes U+2028 and U+2029 as `\u2028` escapes) with
 * those two written as the characters themselves: `\u` escapes are JavaScript's, Rust's and Python's,
 * but not RE2's (Go, C++), while a character is read the same by all (docs/decisions.md §12).
 */
export function portablePattern(source: string): string {
  return source.replace(/(?<!\\)\\u(2028|2029)/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'minimum' && inner === Number.MIN_SAFE_INTEGER) continue;
    if (key === 'maximum' && inner === Number.MAX_SAFE_INTEGER) continue;
    out[key] = key === 'pattern' && typeof inner === 'string' ? portablePattern(inner) : tidy(inner);
  }
  return out;
}

const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });

function failureSchema(codes: readonly ErrorCode[]): JsonObject {
  return {
    type: 'object',
    required: ['success', 'message', 'data', 'error'],
    additionalProperties: false,
    properties: {
      success: { type: 'boolean', const: false },
      message: { type: 'string', description: 'A summary for people; branch on `error.code`, never on this.' },
      data: { type: 'null' },
      error: {
        type: 'object',
        required: ['code', 'details'],
        additionalProperties: false,
        properties: {
          code: codes.length === Object.keys(ERROR_CODES).length ? ref('schemas', 'ErrorCode') : { type: 'string', enum: codes },
          details: {
            type: 'string',
            description: 'The reason, written for a person; names every offending field. Never a secret.',
          },
        },
      },
    },
  };
}

/**
 * Error responses grouped by status, as components.responses entries: Error<status> with every code of the
 * status, and the part of a status some routes answer (errorResponseName) where one does.
 */
function errorResponses(routes: readonly Pick<Route, 'name'>[]): Record<string, JsonObject> {
  const groups = new Map<string, [number, ErrorCode[]]>();
  for (const [status, codes] of codesByStatus(Object.keys(ERROR_CODES) as ErrorCode[])) {
    groups.set(errorResponseName(status, codes), [status, codes]);
  }
  for (const route of routes) {
    for (const [status, codes] of codesByStatus(routeErrorCodes(route)))
      groups.set(errorResponseName(status, codes), [status, codes]);
  }
  const responses: Record<string, JsonObject> = {};
  for (const [name, [, codes]] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const headerNames = [...new Set(codes.flatMap((code) => ERROR_DOCS[code].headers ?? []))];
    responses[name] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_DOCS[code].when}`).join('\n\n'),
      headers: Object.fromEntries([
        ['X-Request-Id', ref('headers', 'X-Request-Id')],
        ['X-Api-Version', ref('headers', 'X-Api-Version')],
        ...headerNames.map((name) => [name, ref('headers', name)]),
      ]),
      content: {
        'application/json': {
          schema: failureSchema(codes),
          examples: Object.fromEntries(
            codes.map((code) => [
              code,
              {
                summary: ERROR_CODES[code].message,
                value: {
                  success: false,
                  message: ERROR_CODES[code].message,
                  data: null,
                  error: { code, details: ERROR_DOCS[code].example },
                },
              },
            ]),
          ),
        },
      },
    };
  }
  return responses;
}

function errorTable(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[]).map(
    (code) => `| \`${code}\` | ${ERROR_CODES[code].status} | ${ERROR_DOCS[code].when} |`,
  );
  return ['| error.code | HTTP status | When |', '|---|---|---|', ...rows].join('\n');
}

const DESCRIPTION = `JSON over HTTP in front of paid search providers. Every endpoint is a \`POST\` of a JSON object
with \`Authorization: Bearer <API key>\`, and every answer, success or failure, is the same envelope:

- success: HTTP 200, \`{"success": true, "message": "10 results", "data": {...}}\`
- failure: \`{"success": false, "message": "...", "data": null, "error": {"code": "...", "details": "..."}}\`

Clients branch on \`error.code\`; \`details\` is written for a person and names every offending field.
Every response carries \`X-Request-Id\` and \`X-Api-Version\` (this document's \`info.version\`). A search
that finds nothing is a success with empty arrays and the message "No results". Arrays in \`data\` are always
present; objects are present or null.

Requests: unknown fields are rejected; strings are trimmed and a blank optional string counts as not given;
text fields reject control characters and ${WELL_FORMED_RULE}; integers must be JSON integers. Every rule
is in the request schemas (\`maxLength\` counts the string as sent, surrounding spaces included; \`pattern\` is
read with the \`u\` flag, and every pattern also compiles in RE2, Rust's and Python's engines, which is why the
lone-surrogate rule is stated here rather than in the patterns); the few that JSON Schema cannot state, such as
the order of two dates, are in the field's description.
Codes the search provider takes (language, region, market, country, geo, category) are its own published
lists, in any letter case. The body is at most ${MAX_BODY_BYTES / 1024} KiB, unless its endpoint's request body says more.
Checks run in this order: path, method, key, size, content type, JSON, fields.

Error codes:

${errorTable()}`;

/** The route's example body, as the docs page's "Try it out" fills it in; none for a route without one. */
function requestExamples(route: Route): JsonObject {
  const example = REQUEST_EXAMPLES[route.name];
  return example ? { examples: { [route.name]: { summary: example.summary, value: example.value } } } : {};
}

/** The OpenAPI 3.1 document for these routes and their schemas. */
export function openApiDocument(endpoints: readonly RouteSchemas[]): JsonObject {
  const schemas: Record<string, JsonObject> = {
    ErrorCode: {
      type: 'string',
      enum: Object.keys(ERROR_CODES),
      description: 'Machine-readable error code; its HTTP status is fixed (see the table in the description).',
    },
    Failure: failureSchema(Object.keys(ERROR_CODES) as ErrorCode[]),
  };
  const paths: Record<string, JsonObject> = {};
  const errorResponseRefs = (route: Route) =>
    Object.fromEntries(
      codesByStatus(routeErrorCodes(route)).map(([status, codes]) => [
        String(status),
        ref('responses', errorResponseName(status, codes)),
      ]),
    );

  for (const { route, requestSchema, responseSchema } of endpoints) {
    const stem = pascalCase(route.name);
    schemas[`${stem}Request`] = toSchema(requestSchema, 'input', `${route.path} request`);
    schemas[`${stem}Data`] = toSchema(responseSchema, 'output', `${route.path} response`);
    schemas[`${stem}Success`] = {
      type: 'object',
      required: ['success', 'message', 'data'],
      additionalProperties: false,
      properties: {
        success: { type: 'boolean', const: true },
        message: { type: 'string', description: 'A short summary such as "10 results" or "No results".' },
        data: ref('schemas', `${stem}Data`),
      },
    };
    paths[route.path] = {
      post: {
        operationId: camelCase(route.name),
        summary: route.summary,
        tags: [route.tag],
        description: `Error codes this endpoint can answer: ${routeErrorCodes(route)
          .map((c) => `\`${c}\``)
          .join(', ')}.`,
        'x-error-codes': routeErrorCodes(route),
        ...(route.name === 'jobs-submit' ? { parameters: [IDEMPOTENCY_PARAMETER] } : {}),
        requestBody: {
          required: true,
          description: `A JSON object of at most ${bodyLimit(route.path) / 1024} KiB. An empty body counts as {}.`,
          content: { 'application/json': { schema: ref('schemas', `${stem}Request`), ...requestExamples(route) } },
        },
        responses: {
          [String(route.successStatus ?? 200)]: {
            description:
              route.successStatus === 202
                ? 'Accepted: the envelope with the job, which is worked on after this answer.'
                : 'Success: the envelope with this endpoint’s data.',
            headers: { 'X-Request-Id': ref('headers', 'X-Request-Id'), 'X-Api-Version': ref('headers', 'X-Api-Version') },
            content: { 'application/json': { schema: ref('schemas', `${stem}Success`) } },
          },
          ...errorResponseRefs(route),
        },
      },
    };
  }

  const usedTags = [...new Set(endpoints.map(({ route }) => route.tag))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Search and Citation API',
      version: API_VERSION,
      description: DESCRIPTION,
    },
    servers: [
      { url: '/', description: 'The server this document is served from (the local server serves it at /openapi.json)' },
      {
        url: '{baseUrl}',
        description: 'A deployed stage: the API Gateway stage URL the deployment prints',
        variables: { baseUrl: { default: 'https://api-id.execute-api.us-east-1.amazonaws.com/prod' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: usedTags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Send `Authorization: Bearer <API key>` on every request. A missing, malformed or unknown key is 401 `UNAUTHORIZED`.',
        },
      },
      schemas,
      responses: errorResponses(endpoints.map(({ route }) => route)),
      headers: HEADERS,
    },
  };
}
