/**
 * Property-based requests (fast-check) against every endpoint of ROUTES, over real HTTP. Whatever the
 * body, the answer is a 200 or a 400 in the exact envelope, never a 500; a refusal names only fields the
 * body holds (or the missing required one) and costs no upstream call; an accepted search text reaches
 * the upstream exactly, trimmed; an integer field takes exactly the JSON integers in its range.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { capturedLogLines } from '../support/capture-logs.js';
import { type Reply, seenBodies, TEST_CLIENT_KEY, TEST_UPSTREAM_KEY, useService } from '../support/service.js';
import { type Body, type CoveredRoute, everyRoute, routesWithoutFacts } from './facts.js';
import { countLeaks, expectClean, expectFailure, expectNoKeyIn, expectSuccess, rawRequest, reportSummary } from './support.js';

// The first request to each endpoint loads its handler's modules (citation styles among them), which took
// over 20 s beside eight busy processes on two cores: a timeout here catches a hang, not a slow machine.
vi.setConfig({ testTimeout: 120_000 });

const SECRETS = [TEST_UPSTREAM_KEY, TEST_CLIENT_KEY, createHash('sha256').update(TEST_CLIENT_KEY).digest('hex')];

const tally = { generated: 0, withinContract: 0, accepted: 0 };

const harness = useService({
  // Generated requests repeat; a cache hit would make an accepted request look as if it never reached the upstream.
  SEARCH_CACHE_MAX: '0',
  CITE_CACHE_MAX: '0',
});

afterAll(async () => {
  reportSummary('properties', {
    order: 2,
    text: `properties: ${tally.generated} generated requests, ${tally.withinContract} answered within the contract (${tally.accepted} of them 200)`,
    bodiesChecked: seenBodies.length,
    logLinesChecked: capturedLogLines.length,
    leaks: countLeaks([...seenBodies, ...capturedLogLines], SECRETS),
  });
});

// --- What the request schema says about its fields (zod/mini keeps its definition on `_zod.def`) ---------

interface ZodNode {
  _zod: {
    def: {
      type: string;
      innerType?: ZodNode;
      shape?: Record<string, ZodNode>;
      format?: string;
      entries?: Record<string, string>;
      checks?: { _zod: { def: { check: string; value?: unknown } } }[];
    };
  };
}

interface FieldShape {
  kind: 'string' | 'integer' | 'enum' | 'boolean' | 'array' | 'other';
  values?: string[];
  min?: number;
  max?: number;
}

function unwrap(node: ZodNode): ZodNode {
  let inner = node;
  while (['optional', 'default', 'prefault', 'nullable'].includes(inner._zod.def.type) && inner._zod.def.innerType) {
    inner = inner._zod.def.innerType;
  }
  return inner;
}

function fieldsOf(schema: ZodNode): Record<string, FieldShape> {
  const shape = schema._zod.def.shape ?? {};
  return Object.fromEntries(
    Object.entries(shape).map(([name, node]): [string, FieldShape] => {
      const def = unwrap(node)._zod.def;
      if (def.type === 'number' && def.format === 'safeint') {
        const bound = (check: string) =>
          def.checks?.find((c) => c._zod.def.check === check)?._zod.def.value as number | undefined;
        return [name, { kind: 'integer', min: bound('greater_than'), max: bound('less_than') }];
      }
      if (def.type === 'enum') return [name, { kind: 'enum', values: Object.values(def.entries ?? {}) }];
      if (def.type === 'string' || def.type === 'boolean' || def.type === 'array') return [name, { kind: def.type }];
      return [name, { kind: 'other' }];
    }),
  );
}

const schemas = new Map<string, Record<string, FieldShape>>();

async function schemaFields(route: CoveredRoute['route']): Promise<Record<string, FieldShape>> {
  let fields = schemas.get(route.path);
  if (!fields) {
    // Imported after the service has started: handlers read their configuration at import.
    const module = (await import(`../../functions/${route.name}.ts`)) as { requestSchema: ZodNode };
    fields = fieldsOf(module.requestSchema);
    schemas.set(route.path, fields);
  }
  return fields;
}

// --- Arbitraries --------------------------------------------------------------------------------------------

const char16 = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const tricky = fc.constantFrom(
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u2028',
  '\u200f',
  '\u0000',
  '\u007f',
  'a',
  '☕',
  ',',
  '&',
  '=',
  '%',
  '+',
  '#',
  ':',
);

/** Any text: full Unicode, ASCII with controls, lone surrogates, separators and injection characters, long runs. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.string({ unit: char16, maxLength: 12 }),
  fc.string({ unit: tricky, maxLength: 20 }),
  fc.string({ unit: fc.constantFrom('A', 'z', '0', '_', '-', ':'), minLength: 1, maxLength: 70 }),
  fc.tuple(fc.integer({ min: 2040, max: 2056 }), fc.constantFrom('a', ' ')).map(([n, c]) => `b${c.repeat(n)}`),
);

const anyJson = fc.jsonValue({ maxDepth: 3 });

/** A value for a field: often one the schema allows, often not. */
function valueFor(field: FieldShape): fc.Arbitrary<unknown> {
  const valid: fc.Arbitrary<unknown>[] = [];
  if (field.kind === 'integer') valid.push(fc.integer({ min: (field.min ?? 0) - 2, max: (field.max ?? 1000) + 2 }));
  if (field.kind === 'enum' && field.values?.length) valid.push(fc.constantFrom(...field.values));
  if (field.kind === 'string') valid.push(anyText);
  if (field.kind === 'boolean') valid.push(fc.boolean());
  if (field.kind === 'array') valid.push(fc.array(anyText, { maxLength: 7 }));
  return fc.oneof(...valid, anyJson);
}

// --- The checks ---------------------------------------------------------------------------------------------

/**
 * Whether every subject of a details line ("queries.0: …; colour: unknown field") is one of `fields` or the
 * body. Matched against the known names rather than split, because a generated key may itself hold ". : ;".
 */
function namesOnly(details: string, fields: readonly string[]): boolean {
  const names = [...new Set([...fields, 'body'])]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const subject = `(?:${names.join('|')})(?:\\.\\d+)?: `;
  return new RegExp(`^${subject}.*?(?:; ${subject}.*?)*$`, 's').test(details);
}

/** Any answer at all must be a 200 or a 400 in the exact envelope; a 400 reached no upstream. */
async function withinContract(send: () => Promise<Reply>, allowed: { fields: string[] }): Promise<Reply> {
  tally.generated += 1;
  const before = harness.upstream.calls();
  const reply = await send();
  expect([200, 400], reply.text.slice(0, 300)).toContain(reply.status);
  expectClean(reply.text, SECRETS);
  if (reply.status === 200) {
    expectSuccess(reply);
    expect(harness.upstream.calls()).toBeGreaterThan(before);
    tally.accepted += 1;
  } else {
    const code = reply.json?.error?.code;
    expect(['MALFORMED_JSON', 'INVALID_REQUEST']).toContain(code);
    expectFailure(reply, code);
    expect(namesOnly(reply.json.error.details, allowed.fields), `${reply.json.error.details} names ${allowed.fields}`).toBe(true);
    expect(harness.upstream.calls()).toBe(before);
  }
  tally.withinContract += 1;
  return reply;
}

describe('the route table', () => {
  it('has hardening facts for every route in ROUTES', () => {
    expect(routesWithoutFacts()).toEqual([]);
  });

  it.each(everyRoute().map((c) => [c.route.path, c] as const))(
    'matches the request schema of %s: its text field, and its integer fields with their bounds',
    async (_path, { route, facts }) => {
      const fields = await schemaFields(route);
      expect(Object.keys(fields)).toContain(facts.text.field);
      const integers = Object.fromEntries(
        Object.entries(fields)
          .filter(([, field]) => field.kind === 'integer')
          .map(([name, field]) => [name, field.max === undefined ? { min: field.min } : { min: field.min, max: field.max }]),
      );
      expect(integers).toEqual(facts.integers);
    },
  );
});

for (const { route, facts } of everyRoute()) {
  const { path } = route;

  describe(`${path} (${facts.family})`, () => {
    it('answers any JSON value as a body with a 200 or a 400 envelope, never a 500', async () => {
      await fc.assert(
        fc.asyncProperty(anyJson, async (value) => {
          const body = value as Body;
          const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
          await withinContract(() => harness.service.post(path, JSON.stringify(value)), {
            fields: [...fields, facts.text.field],
          });
        }),
        { numRuns: 20 },
      );
    });

    it('answers any bytes as a body with a 200 or a 400 envelope, never a 500', async () => {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
          await withinContract(
            () =>
              rawRequest(harness.service.url, path, {
                headers: { Authorization: `Bearer ${TEST_CLIENT_KEY}`, 'Content-Type': 'application/json' },
                body: Buffer.from(bytes),
              }),
            { fields: [facts.text.field] },
          );
        }),
        { numRuns: 15 },
      );
    });

    it('answers bodies built from its own fields with a 200 or a 400 naming only fields the body holds', async () => {
      const fields = await schemaFields(route);
      const names = [...Object.keys(fields), '__proto__', 'constructor', 'extra'];
      const member = fc
        .constantFrom(...names)
        .chain((name) =>
          valueFor(Object.hasOwn(fields, name) ? (fields[name] as FieldShape) : { kind: 'other' }).map((v) => [name, v] as const),
        );
      await fc.assert(
        fc.asyncProperty(fc.array(member, { maxLength: 5 }), fc.boolean(), async (members, keepMinimal) => {
          const base = keepMinimal ? facts.body : {};
          // Built as text: an object literal would turn a "__proto__" member into a prototype, not a key.
          const json = `{${[...Object.entries(base), ...members].map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
          const present = [...Object.keys(base), ...members.map(([k]) => k)];
          await withinContract(() => harness.service.post(path, json), { fields: [...present, facts.text.field] });
        }),
        { numRuns: 40 },
      );
    });

    it(`sends any accepted ${facts.text.field} to the upstream exactly, and refuses the rest by name`, async () => {
      await fc.assert(
        fc.asyncProperty(anyText, async (text) => {
          const reply = await withinContract(() => harness.service.post(path, facts.text.set(facts.body, text)), {
            fields: [facts.text.field],
          });
          expect(reply.status).toBe(facts.text.accepts(text) ? 200 : 400);
          if (reply.status === 200) {
            const sent = harness.upstream.requests
              .filter((q) => q.get('engine') === facts.engine && q.has(facts.text.param))
              .slice(-facts.textCalls);
            for (const query of sent)
              expect(query.getAll(facts.text.param)).toEqual([facts.text.sent?.(text.trim()) ?? text.trim()]);
          }
        }),
        { numRuns: 50 },
      );
    });

    for (const [field, fact] of Object.entries(facts.integers)) {
      it(`takes for ${field} exactly the JSON integers from ${fact.min} to ${fact.max ?? 'any'}`, async () => {
        const candidate = fc.oneof(
          fc.integer({ min: fact.min - 3, max: (fact.max ?? fact.min + 100) + 3 }),
          fc.double(),
          fc.maxSafeInteger(),
          fc.string({ maxLength: 4 }),
          fc.constantFrom(null, true, [], {}),
        );
        await fc.assert(
          fc.asyncProperty(candidate, async (value) => {
            // What the server parses: JSON turns NaN and infinities into null, and -0 into 0.
            const sent: unknown = JSON.parse(JSON.stringify(value));
            const reply = await withinContract(() => harness.service.post(path, { ...facts.body, [field]: sent }), {
              fields: [field],
            });
            const inRange =
              typeof sent === 'number' &&
              Number.isSafeInteger(sent) &&
              sent >= fact.min &&
              (fact.max === undefined || sent <= fact.max);
            expect(reply.status).toBe(inRange ? 200 : 400);
          }),
          { numRuns: 15 },
        );
      });
    }
  });
}

describe('keys', () => {
  it('never puts the upstream key, a client key or its digest in a response body or a log line', () => {
    expect(seenBodies.length).toBeGreaterThan(100);
    expectNoKeyIn(seenBodies, SECRETS);
    expectNoKeyIn(capturedLogLines, SECRETS);
  });
});
