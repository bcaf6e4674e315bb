/**
 * The document is the validator: requests generated from each operation's request schema, as lib/openapi.ts
 * writes it, sent to the local server. A request the document accepts must answer 200; one that breaks
 * exactly one rule of one field (type, enum, pattern, length, range, items, required, unknown field) must
 * answer 400 INVALID_REQUEST naming that field. The few rules JSON Schema cannot state are written in the
 * field's description; they are listed below, and the test checks that the description still says so.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitPastedList } from '../../lib/citations/check/read.js';
import type { Catalogue } from '../../lib/citations/render/style-catalogue.js';
import { CITATION_FORMATS } from '../../lib/contract/cite-search.js';
import { hostRefusal } from '../../lib/jobs/webhook/deliver.js';
import { buildOpenApiDocument } from '../../lib/openapi.js';
import { bodyLimit, ROUTES } from '../../lib/routes.js';
import { startFakeCrossref } from '../support/fake-crossref.js';
import { startFakeDataCite } from '../support/fake-datacite.js';
import { waitForJob } from '../support/jobs.js';
import {
  assertSupported,
  candidates,
  type JsonSchema,
  patternOf,
  type Violation,
  validValue,
  violations,
} from '../support/json-schema-cases.js';
import { useService } from '../support/service.js';

// Citation-search exports look papers up in Crossref: the fake one, so that nothing leaves loopback.
const crossref = await startFakeCrossref();
const FIVE = new Set(CITATION_FORMATS.map((format) => format.toLowerCase()));
// The style catalogue and the id pattern, imported once the service has set up its configuration (their
// modules read it on import).
let catalogue: Catalogue;
let STYLE_ID: RegExp;
// And the fake DataCite: the job made below resolves DOIs, which ask DataCite for what Crossref lacks (the
// real one is off loopback, and a lookup that cannot reach it is asked again, so the job would never end).
const dataCite = await startFakeDataCite();
// The free sources' pace raised: a valid list of 100 free-text references to check is 100 Crossref queries,
// which at the public pace would not fit a request's time (a refusal the check plans; cite-check-limits.test.ts).
const harness = useService({
  CROSSREF_BASE_URL: crossref.url,
  DATACITE_BASE_URL: dataCite.url,
  CROSSREF_REQUESTS_PER_SECOND: '1000',
  DATACITE_REQUESTS_PER_SECOND: '1000',
});
afterAll(() => Promise.all([crossref.close(), dataCite.close()]));

// Reproducible by default; DOCUMENT_FUZZ_SEED=<n> explores other cases, DOCUMENT_FUZZ_RUNS=<n> more of them.
const DEFAULT_SEED = 20_261_123;
const SEED = Number(process.env.DOCUMENT_FUZZ_SEED ?? DEFAULT_SEED);
// Sized to the time it takes: 60 valid bodies per route plus every rule broken (the run prints how many
// requests; docs/testing.md says about how many, checked below) take 10–15 s on a quiet 2-core machine and
// under 60 s beside eight busy processes; the timeout below leaves room for four times that.
const POSITIVES_DEFAULT = 60;
const POSITIVES_PER_ROUTE = Number(process.env.DOCUMENT_FUZZ_RUNS ?? POSITIVES_DEFAULT);
const FUZZ_TIMEOUT_MS = 240_000;
const NEGATIVES_PER_RULE = 4;
const CONCURRENCY = 4;

type Body = Record<string, unknown>;

/** A rule stated only in prose: the field whose description states it, and how to keep and break it. */
interface ProseRule {
  field: string;
  /** Words the field's description must contain for the rule to count as documented. */
  stated: RegExp;
  holds(body: Body): boolean;
  /**
   * The body changed so that it breaks this rule and nothing else (checked against the schema too); absent
   * for a rule whose breach is no 400 (a valid id of no job of this key's is 404), which only keeps the
   * valid bodies within it.
   */
  broken?(body: Body): Body;
  /** A generated body made to keep the rule, where random values nearly never do (a known style id). */
  repair?(body: Body): Body;
}

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
/**
 * The document's limit on the whole body (its request body description: the route's own, else
 * lib/middleware/body.ts's 16 KiB), which a list of long texts can pass with every field valid (50 references of 2,000
 * characters); the 413 beyond it is the hardening suite's to check.
 */
const withinBodyLimit = (path: string, body: Body) => Buffer.byteLength(JSON.stringify(body)) <= bodyLimit(path);

// Both ways of URL-encoding, since the description does not say which: the form encoding the upstream
// request uses and encodeURIComponent.
const encodedBytes = (value: string) => ({
  most: Math.max(new URLSearchParams({ v: value }).toString().length - 2, encodeURIComponent(value).length),
  least: Math.min(new URLSearchParams({ v: value }).toString().length - 2, encodeURIComponent(value).length),
});

/** Exactly one of `references` and `bibliography` (the reference check's body and a job's), as its description states it. */
function oneOfReferencesAndBibliography(stated: RegExp): ProseRule {
  const given = (body: Body, field: string) => body[field] !== undefined;
  return {
    field: 'references',
    stated,
    holds: (body) => given(body, 'references') !== given(body, 'bibliography'),
    broken: (body) => ({ ...body, references: ['10.1000/182'], bibliography: '10.1000/182' }),
    repair: (body) => {
      if (given(body, 'references') && given(body, 'bibliography')) {
        const { bibliography: _dropped, ...rest } = body;
        return rest;
      }
      return given(body, 'references') || given(body, 'bibliography') ? body : { ...body, references: ['10.1000/182'] };
    },
  };
}

/** The prose rules of one route: the cross-field rules, and every "at most N bytes once URL-encoded". */
function proseRules(path: string, schema: JsonSchema): ProseRule[] {
  const rules: ProseRule[] = [];
  const properties = schema.properties as Record<string, JsonSchema>;
  for (const [field, property] of Object.entries(properties)) {
    const limit = /at most (\d+) bytes once URL-encoded/.exec(String(property.description ?? ''));
    if (!limit) continue;
    const bytes = Number(limit[1]);
    rules.push({
      field,
      stated: /bytes once URL-encoded/,
      holds: (body) => typeof body[field] !== 'string' || encodedBytes(trimmed(body[field])).most <= bytes,
      broken: (body) => ({ ...body, [field]: '中'.repeat(Math.floor(bytes / 9) + 1) }),
    });
  }
  // A CSL style id must be one the catalogue holds: the document states its shape, the description says the
  // rest. Only id-shaped values are this rule's: any other value breaks the pattern, which the schema states.
  const known = (value: unknown) =>
    typeof value !== 'string' ||
    !STYLE_ID.test(value) ||
    FIVE.has(value.toLowerCase()) ||
    catalogue.get(value.toLowerCase()) !== undefined;
  if (path === '/v1/cite/search') {
    rules.push({
      field: 'format',
      stated: /an unknown id is refused/,
      holds: (body) => known(body.format),
      broken: (body) => ({ ...body, format: 'no-such-style-here' }),
      repair: (body) => (known(body.format) ? body : { ...body, format: 'ieee' }),
    });
  }
  if (path === '/v1/cite/check') {
    // The body's top-level oneOf (one of references and bibliography required), read as this rule.
    rules.push(oneOfReferencesAndBibliography(/Give this or `bibliography`, not both/));
    rules.push({
      field: 'bibliography',
      stated: /at most 100 references/,
      // A generated text is no .bib, .ris or JSON array: it is split as a pasted list. Blank, it holds none;
      // empty, it breaks the document's own minLength, and only that.
      holds: (body) =>
        typeof body.bibliography !== 'string' ||
        body.bibliography === '' ||
        (body.bibliography.trim() !== '' && splitPastedList(body.bibliography).length <= 100),
      broken: (body) => {
        const { references: _dropped, ...rest } = body;
        return { ...rest, bibliography: Array.from({ length: 101 }, (_, i) => `Author ${i}. Title ${i}.`).join('\n\n') };
      },
    });
    // Google Scholar is paid: a valid body asking for it would meet the budget's 429 (its own rule, tested in
    // cite-check-limits.test.ts), not the document's. The field's type and its refusals are still generated.
    rules.push({
      field: 'scholar',
      stated: /one paid search each/,
      holds: (body) => body.scholar !== true,
      repair: (body) => (body.scholar === true ? { ...body, scholar: false } : body),
    });
  }
  if (path === '/v1/cite/search' || path === '/v1/cite/resolve' || path === '/v1/cite/check') {
    const ids = ['nature', 'ieee', 'apa', 'cell', 'the-lancet'];
    rules.push({
      field: 'styles',
      stated: /an unknown id is refused/,
      // A list the schema refuses (too long, an item that is no id) is the schema's case, not this rule's.
      holds: (body) =>
        !Array.isArray(body.styles) ||
        body.styles.length > 5 ||
        body.styles.some((id) => typeof id !== 'string' || !STYLE_ID.test(id)) ||
        body.styles.every(known),
      broken: (body) => ({ ...body, styles: ['no-such-style-here'] }),
      repair: (body) =>
        Array.isArray(body.styles)
          ? { ...body, styles: body.styles.map((id, i) => (known(id) ? id : ids[i % ids.length])) }
          : body,
    });
  }
  if (path === '/v1/jobs') {
    rules.push(oneOfReferencesAndBibliography(/exactly one of references and bibliography/));
    rules.push({
      field: 'bibliography',
      stated: /holds at least one reference/,
      // Blank, it holds none; any other text holds one at least, a pasted list's paragraph if nothing else.
      // Empty, it breaks the document's own minLength, and only that.
      holds: (body) => typeof body.bibliography !== 'string' || body.bibliography === '' || body.bibliography.trim() !== '',
      broken: (body) => {
        const { references: _dropped, ...rest } = body;
        return { ...rest, bibliography: ' \n\t ' };
      },
    });
    const ids = ['nature', 'ieee', 'apa', 'cell', 'the-lancet'];
    const stylesOf = (body: Body) => (body.options as { styles?: unknown } | undefined)?.styles;
    rules.push({
      field: 'options',
      stated: /an unknown id in styles is refused/,
      holds: (body) => {
        const styles = stylesOf(body);
        return (
          !Array.isArray(styles) ||
          styles.length > 5 ||
          styles.some((id) => typeof id !== 'string' || !STYLE_ID.test(id)) ||
          styles.every(known)
        );
      },
      broken: (body) => ({ ...body, options: { styles: ['no-such-style-here'] } }),
      repair: (body) => {
        const styles = stylesOf(body);
        return Array.isArray(styles)
          ? {
              ...body,
              options: { ...(body.options as object), styles: styles.map((id, i) => (known(id) ? id : ids[i % ids.length])) },
            }
          : body;
      },
    });
    rules.push({
      field: 'webhook',
      stated: /never a link-local or metadata address, and where deployed never a loopback or private one/,
      // The service here is as deployed (JOBS_WEBHOOK_PRIVATE unset): a literal address inside is refused too.
      holds: (body) => {
        const url = (body.webhook as { url?: unknown } | undefined)?.url;
        if (typeof url !== 'string' || !URL.canParse(url.trim())) return true;
        return hostRefusal(new URL(url.trim()), false) === undefined;
      },
      broken: (body) => ({
        ...body,
        webhook: { url: 'http://169.254.169.254/latest/meta-data/', secret: 'a-webhook-secret-16' },
      }),
    });
  }
  if (path === '/v1/jobs/results') {
    const cursorPattern = patternOf(String(properties.cursor?.pattern ?? ''));
    rules.push({
      field: 'cursor',
      stated: /a cursor no page of this job gave is refused/,
      holds: (body) => {
        // A cursor of another shape breaks the pattern, the document's own rule, and only that.
        if (typeof body.cursor !== 'string' || body.cursor.trim() === '' || !cursorPattern.test(body.cursor.trim())) return true;
        const index = /^r(\d{1,7})$/.exec(Buffer.from(body.cursor.trim(), 'base64url').toString('utf8'))?.[1];
        return index !== undefined && Number(index) >= 1 && Number(index) <= FUZZ_JOB_REFERENCES.length + 1;
      },
      broken: (body) => ({ ...body, cursor: Buffer.from('r99999').toString('base64url') }),
      repair: (body) => {
        const { cursor: _dropped, ...rest } = body;
        return rest;
      },
    });
  }
  if (['/v1/jobs/status', '/v1/jobs/results', '/v1/jobs/cancel'].includes(path)) {
    // Any valid id but this key's job's is answered 404 JOB_NOT_FOUND (test/integration/jobs.test.ts): the
    // valid bodies name the job made for this test.
    const idPattern = patternOf(String(properties.job_id?.pattern ?? ''));
    rules.push({
      field: 'job_id',
      stated: /POST \/v1\/jobs answered it/,
      // An id of another shape or length breaks the document's own rules, and only those.
      holds: (body) =>
        typeof body.job_id !== 'string' ||
        !idPattern.test(body.job_id.trim()) ||
        body.job_id.trim().length > Number(properties.job_id?.maxLength ?? Number.POSITIVE_INFINITY) ||
        body.job_id.trim() === fuzzJob,
      repair: (body) => ({ ...body, job_id: fuzzJob }),
    });
  }
  if (path === '/v1/web-search/delta') {
    rules.push({
      field: 'date_to',
      stated: /date_from/,
      holds: (body) => !trimmed(body.date_from) || !trimmed(body.date_to) || trimmed(body.date_from) <= trimmed(body.date_to),
      broken: (body) => ({ ...body, date_from: '2024-02-01', date_to: '2024-01-31' }),
    });
  }
  if (path === '/v1/alpha/trends') {
    const range = (body: Body) => /^(\d{4}-\d{2}-\d{2}) (\d{4}-\d{2}-\d{2})$/.exec(trimmed(body.timeframe));
    rules.push({
      field: 'timeframe',
      stated: /second date not before the first/,
      holds: (body) => {
        const dates = range(body);
        return !dates || (dates[1] as string) <= (dates[2] as string);
      },
      broken: (body) => ({ ...body, timeframe: '2024-03-01 2024-02-01' }),
    });
  }
  if (path === '/v1/alpha/scholar/author-citation') {
    rules.push({
      field: 'author_id',
      stated: /citation_id/,
      holds: (body) => !trimmed(body.author_id) || trimmed(body.citation_id).startsWith(`${trimmed(body.author_id)}:`),
      broken: (body) => ({ ...body, citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C', author_id: 'AAAAAAAAAAAA' }),
    });
  }
  return rules;
}

/**
 * Rules that no single value of the field can break without breaking another of its rules too (such a
 * case would not show which rule the server applied), each with why.
 */
const UNBREAKABLE_ALONE: string[] = [
  // Given, it must equal citation_id's prefix, which always matches the pattern: breaking the pattern
  // breaks the prose rule too.
  '/v1/alpha/scholar/author-citation author_id pattern',
  // The pattern fixes a job id's length: a longer value breaks the pattern too.
  '/v1/jobs/status job_id maxLength',
  '/v1/jobs/results job_id maxLength',
  '/v1/jobs/cancel job_id maxLength',
];

interface Case {
  path: string;
  body: Body;
  /** undefined: the document accepts it; else the one field and rule it breaks. */
  broken?: { field: string; rule: string };
}

interface Disagreement {
  path: string;
  expected: string;
  field?: string;
  rule?: string;
  status: number;
  answer: string;
  body: string;
}

const schemas = new Map<string, JsonSchema>();

/** The job the valid bodies of the routes that read a job name: made, and ended, before any case is sent. */
const FUZZ_JOB_REFERENCES = ['10.1111/ele.14024', '10.1038/nphys1170'];
let fuzzJob = '';

beforeAll(async () => {
  const made = await harness.service.post('/v1/jobs', { kind: 'resolve', references: FUZZ_JOB_REFERENCES });
  fuzzJob = made.json.data.job_id;
  await waitForJob(harness.service, fuzzJob);
  // The jobs the cases submit are judged on their acceptance alone: none is worked on (no lookup, and no
  // webhook's name resolved, which would leave loopback).
  (await import('../../lib/jobs/deployment.js')).embeddedJobQueue()?.stop();
  catalogue = await (await import('../../lib/citations/render/style-catalogue.js')).loadCatalogue();
  STYLE_ID = (await import('../../lib/citations/render/style-fields.js')).STYLE_ID;
  // biome-ignore lint/suspicious/noExplicitAny: the test walks the document's JSON freely
  const document: any = await buildOpenApiDocument();
  for (const route of FUZZED_ROUTES) {
    let schema = document.paths[route.path].post.requestBody.content['application/json'].schema as JsonSchema;
    if (typeof schema.$ref === 'string') schema = document.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
    if (route.path === '/v1/cite/check') {
      // One of two required fields: the only top-level oneOf the document has, modelled as a prose rule.
      expect(schema.oneOf).toEqual([{ required: ['references'] }, { required: ['bibliography'] }]);
      const { oneOf: _modelled, ...rest } = schema;
      schema = rest;
    }
    assertSupported(schema, route.path);
    schemas.set(route.path, schema);
  }
});

/**
 * The routes whose request this generator models: every one. /v1/cite/check's body is one of two shapes
 * (`references` or `bibliography`, a top-level oneOf), modelled as a prose rule; its valid bodies leave
 * Google Scholar out (paid: the budget's refusal is its own rule). The job routes' valid bodies name the job
 * made above, and their prose rules (a cursor of this job, a bibliography that holds a reference, a webhook's
 * address, a style the catalogue holds) are kept and broken like any other. Including them found that a
 * blank cursor was refused where a blank optional field is not given (docs/decisions.md §4): fixed in
 * lib/jobs/read.ts.
 */
const FUZZED_ROUTES = ROUTES;

/** Rule keywords a value of a field can break, so each can be named as a rule the cases must break. */
const RULE_KEYWORDS = [
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'anyOf',
];

/** Every `field keyword` the schema states, reading items and anyOf branches too, as the cases name them. */
function statedRules(schema: JsonSchema, prose: ProseRule[]): string[] {
  const rules = new Set<string>();
  const walk = (field: string, property: JsonSchema) => {
    for (const keyword of RULE_KEYWORDS) if (keyword in property) rules.add(`${field} ${keyword}`);
    // A value of another type is outside the enum as well: the enum is the rule it breaks alone.
    if ('enum' in property) rules.delete(`${field} type`);
    // Text that must match a pattern rejecting the empty string breaks the pattern too when empty.
    if (property.minLength === 1 && typeof property.pattern === 'string' && !patternOf(property.pattern).test('')) {
      rules.delete(`${field} minLength`);
    }
    if (property.items) walk(field, property.items as JsonSchema);
  };
  for (const [field, property] of Object.entries(schema.properties as Record<string, JsonSchema>)) walk(field, property);
  for (const field of (schema.required ?? []) as string[]) rules.add(`${field} required`);
  if (schema.additionalProperties === false) rules.add('unknown_field additionalProperties');
  for (const rule of prose) if (rule.broken) rules.add(`${rule.field} description`);
  return [...rules];
}

const only = (found: Violation[]) => (found.length === 1 ? found[0] : undefined);
const fieldOf = (violation: Violation) => violation.path.split('.')[0] as string;

/** Positive cases: bodies the document accepts and every prose rule keeps. */
function positiveCases(path: string, schema: JsonSchema, prose: ProseRule[]): Case[] {
  const keeps = (body: Body) =>
    violations(schema, body).length === 0 && prose.every((rule) => rule.holds(body)) && withinBodyLimit(path, body);
  const repaired = (body: Body) => prose.reduce((next, rule) => rule.repair?.(next) ?? next, body);
  const arbitrary = (validValue(schema) as fc.Arbitrary<Body>).map(repaired).filter(keeps);
  return fc.sample(arbitrary, { numRuns: POSITIVES_PER_ROUTE, seed: SEED }).map((body) => ({ path, body }));
}

/**
 * Negative cases: a valid body with exactly one rule of one field broken, up to a few per rule; and the
 * edge cases among the candidates that the document accepts.
 */
function negativeCases(path: string, schema: JsonSchema, prose: ProseRule[], base: Body): Case[] {
  const cases = new Map<string, Case[]>();
  const keep = (body: Body, field: string, rule: string) => {
    const key = `${field} ${rule}`;
    const list = cases.get(key) ?? [];
    const text = JSON.stringify(body);
    if (list.length < NEGATIVES_PER_RULE && !list.some((known) => JSON.stringify(known.body) === text)) {
      list.push(rule === 'accepted' ? { path, body } : { path, body, broken: { field, rule } });
    }
    cases.set(key, list);
  };
  const properties = schema.properties as Record<string, JsonSchema>;
  // The required fields alone, too: a field exclusive with one the first valid body has (market and cc)
  // can break its own rules only without it.
  const required = new Set((schema.required ?? []) as string[]);
  const bare = Object.fromEntries(Object.entries(base).filter(([field]) => required.has(field)));
  for (const [field, property] of Object.entries(properties)) {
    for (const value of [base, bare].flatMap((start) => candidates(property, SEED).map((v) => ({ start, v })))) {
      const body = { ...value.start, [field]: value.v };
      if (!prose.every((rule) => rule.holds(body)) || !withinBodyLimit(path, body)) continue;
      const found = violations(schema, body);
      const broken = only(found);
      if (broken && fieldOf(broken) === field) keep(body, field, broken.keyword);
      // A candidate the document accepts is a valid edge case (longest values, odd characters).
      if (found.length === 0) keep(body, field, 'accepted');
    }
  }
  for (const field of (schema.required ?? []) as string[]) {
    const { [field]: _, ...body } = base;
    if (only(violations(schema, body))?.keyword === 'required') keep(body, field, 'required');
  }
  for (const unknown of ['unknown_field', 'Q', 'api_key', `${Object.keys(properties)[0]} `]) {
    const body = { ...base, [unknown]: 'x' };
    if (only(violations(schema, body))?.keyword === 'additionalProperties') keep(body, unknown, 'additionalProperties');
  }
  for (const rule of prose) {
    if (!rule.broken) continue;
    const body = rule.broken(base);
    if (violations(schema, body).length === 0 && !rule.holds(body)) keep(body, rule.field, 'description');
  }
  return [...cases.values()].flat();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function judge(kase: Case): Promise<Disagreement | undefined> {
  const reply = await harness.service.post(kase.path, kase.body);
  const code: string | undefined = reply.json?.error?.code;
  const details: string = reply.json?.error?.details ?? '';
  const answer = `${reply.status} ${code ?? 'success'}${details ? `: ${details}` : ''}`;
  const body = JSON.stringify(kase.body).slice(0, 300);
  if (!kase.broken) {
    const success = ROUTES.find((route) => route.path === kase.path)?.successStatus ?? 200;
    return reply.status === success && reply.json?.success === true
      ? undefined
      : { path: kase.path, expected: '200', status: reply.status, answer, body };
  }
  const { field, rule } = kase.broken;
  // The field, or one inside it: an item (`references.3`) or a nested field (`options.styles`, `webhook.url`).
  const named = new RegExp(`(^|; )${escapeRegExp(field)}(\\.[\\w-]+)*: `).test(details);
  return reply.status === 400 && code === 'INVALID_REQUEST' && named
    ? undefined
    : { path: kase.path, expected: `400 INVALID_REQUEST naming ${field}`, field, rule, status: reply.status, answer, body };
}

async function judgeAll(cases: Case[]): Promise<Disagreement[]> {
  const found: Disagreement[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const kase = cases[next++] as Case;
      const disagreement = await judge(kase);
      if (disagreement) found.push(disagreement);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return found;
}

describe('requests generated from the OpenAPI document', () => {
  it('states every rule outside JSON Schema in its field’s description', () => {
    for (const route of FUZZED_ROUTES) {
      const schema = schemas.get(route.path) as JsonSchema;
      const properties = schema.properties as Record<string, JsonSchema>;
      for (const rule of proseRules(route.path, schema)) {
        expect(String(properties[rule.field]?.description ?? ''), `${route.path} ${rule.field}`).toMatch(rule.stated);
      }
    }
  });

  it(
    'are answered as the document says: 200 for valid ones, 400 naming the field for each broken rule',
    async () => {
      const cases: Case[] = [];
      const rules = new Set<string>();
      const unbroken: string[] = [];
      for (const route of FUZZED_ROUTES) {
        const schema = schemas.get(route.path) as JsonSchema;
        const prose = proseRules(route.path, schema);
        const positives = positiveCases(route.path, schema, prose);
        // The filter must not thin the sample: every route is tried with the full number of valid bodies.
        expect(positives.length, `${route.path} valid bodies`).toBe(POSITIVES_PER_ROUTE);
        const base = positives[0]?.body ?? {};
        const negatives = negativeCases(route.path, schema, prose, base);
        const broken = new Set(negatives.flatMap((kase) => (kase.broken ? [`${kase.broken.field} ${kase.broken.rule}`] : [])));
        for (const rule of broken) rules.add(`${route.path} ${rule}`);
        // A rule no generated case breaks alone would otherwise go untried without a word.
        for (const rule of statedRules(schema, prose)) if (!broken.has(rule)) unbroken.push(`${route.path} ${rule}`);
        cases.push(...positives, ...negatives);
      }
      expect(unbroken, 'rules of the document that no case breaks').toEqual(UNBREAKABLE_ALONE);
      const started = Date.now();
      const disagreements = await judgeAll(cases);
      if (process.env.DOCUMENT_FUZZ_RULES) process.stderr.write(`${[...rules].join('\n')}\n`);
      const positives = cases.filter((kase) => !kase.broken).length;
      process.stderr.write(
        `document fuzz (seed ${SEED}): ${cases.length} cases (${positives} valid, ${cases.length - positives} breaking ` +
          `one of ${rules.size} rules), ${disagreements.length} disagreements, ${Date.now() - started} ms\n`,
      );
      expect(disagreements).toEqual([]);
      // The guide's figures are this run's: its default number of valid bodies, and about as many cases.
      const guide = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
      const byDefault = /\(valid requests per endpoint, (\d+) by default\)/.exec(guide)?.[1];
      expect(Number(byDefault), 'docs/testing.md: "(valid requests per endpoint, N by default)"').toBe(POSITIVES_DEFAULT);
      const about = Number(/: about ([\d,]+) per run,/.exec(guide)?.[1]?.replace(/,/g, ''));
      if (POSITIVES_PER_ROUTE === POSITIVES_DEFAULT && SEED === DEFAULT_SEED) {
        expect(
          Math.abs(about - cases.length),
          `docs/testing.md: "about ${about} per run"; this run made ${cases.length}`,
        ).toBeLessThanOrEqual(cases.length / 10);
      }
    },
    FUZZ_TIMEOUT_MS,
  );
});

describe('the case checker', () => {
  const schema: JsonSchema = {
    type: 'object',
    required: ['q'],
    additionalProperties: false,
    properties: {
      q: { type: 'string', minLength: 1, maxLength: 3, pattern: '^[a-z😀]+$' },
      n: { type: 'integer', minimum: 1, maximum: 9 },
      tags: { type: 'array', maxItems: 2, items: { type: 'string', enum: ['a', 'b'] } },
    },
    // n and tags not together, as a document can say of two exclusive fields.
    not: { required: ['n', 'tags'] },
  };

  it.each([
    [{ q: 'ab' }, []],
    [{ q: '😀😀😀' }, []],
    [{}, [{ path: 'q', keyword: 'required' }]],
    [{ q: 'abcd' }, [{ path: 'q', keyword: 'maxLength' }]],
    [
      { q: '' },
      [
        { path: 'q', keyword: 'minLength' },
        { path: 'q', keyword: 'pattern' },
      ],
    ],
    [{ q: 'A' }, [{ path: 'q', keyword: 'pattern' }]],
    [{ q: 2 }, [{ path: 'q', keyword: 'type' }]],
    [{ q: 'a', n: 2.5 }, [{ path: 'n', keyword: 'type' }]],
    [{ q: 'a', n: 10 }, [{ path: 'n', keyword: 'maximum' }]],
    [{ q: 'a', tags: ['a', 'c'] }, [{ path: 'tags.1', keyword: 'enum' }]],
    [{ q: 'a', tags: ['a', 'a', 'a'] }, [{ path: 'tags', keyword: 'maxItems' }]],
    [{ q: 'a', x: 1 }, [{ path: 'x', keyword: 'additionalProperties' }]],
    [{ q: 'a', n: 1, tags: [] }, [{ path: '', keyword: 'not' }]],
  ])('lists exactly the rules %j breaks', (value, expected) => {
    expect(violations(schema, value)).toEqual(expected);
  });

  it('generates only values the schema accepts', () => {
    for (const value of fc.sample(validValue(schema), { numRuns: 200, seed: SEED })) {
      expect(violations(schema, value), JSON.stringify(value)).toEqual([]);
    }
  });

  it('refuses a keyword it does not understand rather than ignore it', () => {
    expect(() => assertSupported({ type: 'string', contentEncoding: 'base64' }, 'x')).toThrow(/contentEncoding/);
  });
});
