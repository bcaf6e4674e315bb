/**
 * `npm run smoke -- --live --url <stage URL> --key <client key>`: calls every endpoint once against a
 * deployment and checks each answer against the OpenAPI document (the route's 200 response schema, the
 * envelope included) with a JSON Schema 2020-12 validator. It prints one row per endpoint: the status,
 * the paid searches the request can cost (infra/budget.ts's cost table, for the body sent), the fields
 * missing (required by the schema but absent, or null where the schema says non-null) and the fields new
 * (present but not in the schema). Exit code 0 when every answer validates, 1 otherwise, 2 when it did
 * not run (no `--live`, a bad argument). Without `--live` it calls nothing: each run spends real searches.
 * With `--upstream` instead of a deployment, it starts this repository's service in its own process with
 * the team's SerpApi key and makes the same calls to it: SerpApi's answers of today against the document.
 * Then SerpApi's answers pass through a recorder on loopback on their way to the service, and the run also
 * lists every field of them that the endpoint does not carry (lib/reshape/carried.ts), so that a block
 * the upstream starts sending, or one it renames, shows up.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { PAID_CALLS_PER_REQUEST } from '../../infra/budget.js';
import { CARRIED, notCarried } from '../reshape/carried.js';
import { ROUTES } from '../routes.js';

/**
 * One body per route, the cheapest a person would send: a citation search of one paper, cited from its
 * free record (no `citation_source: "index"`), scholar profiles with no profile page filled (`enrich: 0`),
 * trends for a single term.
 */
export const SMOKE_BODIES: Readonly<Record<string, Record<string, unknown>>> = {
  'web-search-alpha': { q: 'coffee' },
  'web-search-bravo': { q: 'coffee' },
  'web-search-charlie': { q: 'coffee' },
  'web-search-delta': { q: '咖啡' },
  'cite-search': { query: 'machine learning', results: 1 },
  'cite-resolve': { references: ['10.1038/nphys1170'], styles: ['nature'] },
  'cite-styles': { query: 'nature', results: 1 },
  'cite-check': { references: ['10.1038/nphys1170'] },
  'scholar-profiles': { query: 'mike', num: 1, enrich: 0 },
  'scholar-author': { author_id: 'LSsXyncAAAAJ', num: 1 },
  'scholar-author-citation': { citation_id: 'LSsXyncAAAAJ:u5HHmVD_uO8C' },
  'alpha-trends': { queries: ['coffee'] },
  'alpha-news': { q: 'coffee' },
  'alpha-images': { q: 'coffee' },
  usage: {},
  // A job of one DOI; the job routes after it read that job (SMOKE_JOB_ID is replaced by its id).
  'jobs-submit': { kind: 'resolve', references: ['10.1038/nphys1170'] },
  'jobs-status': { job_id: 'SMOKE_JOB_ID' },
  'jobs-results': { job_id: 'SMOKE_JOB_ID', limit: 1 },
  'jobs-cancel': { job_id: 'SMOKE_JOB_ID' },
};

/** The stand-in for the job the run's submission makes, in the bodies of the routes that read a job. */
const SMOKE_JOB_ID = 'SMOKE_JOB_ID';

/**
 * The most paid searches this body can cost, from the cost table (infra/budget.ts). The table gives each
 * route's worst case; four routes' costs depend on the body: a citation search is its one scholarly search
 * plus one per paper only with `citation_source: "index"` (the table's 1 + 20), scholar profiles cost
 * the search plus one per profile filled (`enrich`, default 5), web search alpha costs a second search
 * only with `fetch_ai_overview: true` (Google's AI overview fetched with its token), and a reference check
 * searches Google Scholar only with `scholar: true`, at most once per reference.
 */
export function paidCalls(name: string, body: Record<string, unknown>): number {
  const table = PAID_CALLS_PER_REQUEST[name];
  if (table === undefined) throw new Error(`${name} has no entry in the cost table (infra/budget.ts)`);
  if (name === 'web-search-alpha') return body.fetch_ai_overview === true ? table : 1;
  if (name === 'cite-search') {
    const perPaper = body.citation_source === 'index' ? Number(body.results ?? 10) : 0;
    return Math.min(table, 1 + perPaper);
  }
  if (name === 'scholar-profiles') return Math.min(table, 1 + Number(body.enrich ?? 5));
  if (name === 'cite-check') {
    const references = Array.isArray(body.references) ? body.references.length : table;
    return body.scholar === true ? Math.min(table, references) : 0;
  }
  return table;
}

/** The most paid searches one smoke run spends: what its bodies cost, from the cost table (the help's total). */
export const SMOKE_SEARCH_LIMIT = ROUTES.reduce((sum, route) => sum + paidCalls(route.name, SMOKE_BODIES[route.name] ?? {}), 0);

export const HELP = `Usage: npm run smoke -- --live --url <stage URL> --key <client key> [--spec <openapi.json>]
       npm run smoke -- --live --upstream [--spec <openapi.json>]

Calls every endpoint of a deployment once (POST with the body below, Bearer key) and checks each answer
against the OpenAPI document: the route's 200 response schema, envelope included ({success, message,
data}), with a JSON Schema 2020-12 validator (ajv). Prints one row per endpoint:

  endpoint  the route's name (lib/routes.ts)
  status    the HTTP status
  paid      the most paid SerpApi searches the request can cost (infra/budget.ts, for this body);
            a cached answer costs nothing
  missing   fields the schema requires that are absent, or null where the schema says non-null
  new       fields present in the answer that the schema does not name
  other     any other disagreement (a wrong type, a value out of range), detailed under the table

With --upstream, a second list follows: for each endpoint, the fields of SerpApi's answers that the
endpoint does not carry (lib/reshape/carried.ts lists those it does), a whole block where none of it is
carried. It does not change the exit code: it shows what the upstream sends that the service leaves out,
so that a new or renamed block shows up.

It SPENDS REAL SEARCHES: at most ${SMOKE_SEARCH_LIMIT} a run. Cost per call:
${ROUTES.map((route) => `  ${route.name.padEnd(24)} ${String(paidCalls(route.name, SMOKE_BODIES[route.name] ?? {})).padStart(2)}  ${JSON.stringify(SMOKE_BODIES[route.name])}`).join('\n')}
  total                    ${String(SMOKE_SEARCH_LIMIT).padStart(2)}

Options:
  --live           required: without it the smoke run calls nothing and prints this help
  --url <url>      the stage URL the deployment prints (https://<api-id>.execute-api.<region>.amazonaws.com/prod),
                   or a local server (http://127.0.0.1:3000)
  --key <key>      a client key (or set API_KEY; the key is never printed)
  --spec <file>    the OpenAPI document to check against (default: the repository's openapi.json)
  --upstream       instead of a deployment: start this repository's service in this process, on a free
                   local port, with the team's SerpApi key (SERPAPI_API_KEY or SERPAPI_SECRET_ID from the
                   environment; never the demo upstream), and run the same calls against it: checks that
                   SerpApi's answers of today still reshape into the document. Its budget is set to
                   ${SMOKE_SEARCH_LIMIT} searches an hour, counted in memory, so the run cannot spend more; no --url, --key
  --help           this text

Exit code: 0 when every answer validates, 1 when one does not (or a call failed), 2 when nothing ran.
`;

export interface SmokeRow {
  endpoint: string;
  path: string;
  status: number;
  paid: number;
  missing: string[];
  new: string[];
  other: string[];
}

export interface SmokeIo {
  fetch?: typeof fetch;
  out?: (text: string) => void;
  err?: (text: string) => void;
  env?: Record<string, string | undefined>;
}

interface Options {
  live: boolean;
  help: boolean;
  upstream: boolean;
  url?: string;
  key?: string;
  spec?: string;
}

function parseArgs(argv: readonly string[]): Options | string {
  const options: Options = { live: false, help: false, upstream: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--live') options.live = true;
    else if (flag === '--help' || flag === '-h') options.help = true;
    else if (flag === '--upstream') options.upstream = true;
    else if (flag === '--url') options.url = value();
    else if (flag === '--key') options.key = value();
    else if (flag === '--spec') options.spec = value();
    else return `Unknown argument: ${arg}`;
  }
  return options;
}

/** `data.profiles[].email`: array indexes collapsed, so that one missing field is one entry. */
function fieldName(instancePath: string, property?: string): string {
  const parts = instancePath.split('/').slice(1);
  if (property !== undefined) parts.push(property);
  let name = '';
  for (const part of parts) {
    const decoded = part.replace(/~1/g, '/').replace(/~0/g, '~');
    name += /^\d+$/.test(decoded) ? '[]' : name === '' ? decoded : `.${decoded}`;
  }
  return name || '(body)';
}

/** Sorts the validator's errors into the table's columns. */
export function classify(errors: readonly ErrorObject[], body: unknown): Pick<SmokeRow, 'missing' | 'new' | 'other'> {
  const missing = new Set<string>();
  const added = new Set<string>();
  const other = new Set<string>();
  const at = (pointer: string): unknown => {
    let value: unknown = body;
    for (const part of pointer.split('/').slice(1)) {
      value =
        value && typeof value === 'object'
          ? (value as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
          : undefined;
    }
    return value;
  };
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required') missing.add(fieldName(error.instancePath, String(params.missingProperty)));
    else if (error.keyword === 'additionalProperties')
      added.add(fieldName(error.instancePath, String(params.additionalProperty)));
    else if (error.keyword === 'type' && at(error.instancePath) === null) missing.add(`${fieldName(error.instancePath)} (null)`);
    // anyOf/oneOf only repeat what their branches said.
    else if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf')
      other.add(`${fieldName(error.instancePath)}: ${error.message}`);
  }
  return { missing: [...missing], new: [...added], other: [...other] };
}

export function renderTable(rows: readonly SmokeRow[]): string {
  const list = (items: readonly string[]) => (items.length === 0 ? '-' : items.join(', '));
  const header = ['endpoint', 'status', 'paid', 'missing', 'new', 'other'];
  const body = rows.map((row) => [
    row.endpoint,
    String(row.status),
    String(row.paid),
    list(row.missing),
    list(row.new),
    String(row.other.length),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((line) => line[column]?.length ?? 0)));
  const render = (line: string[]) => `| ${line.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [render(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...body.map(render)].join('\n');
}

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;

/** The `$ref` of the route's 200 answer, e.g. `#/components/schemas/CiteSearchSuccess`. */
function responseSchema(document: Json, path: string, status: number): Json {
  const schema = document.paths?.[path]?.post?.responses?.[String(status)]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`the OpenAPI document has no ${status} application/json answer for POST ${path}`);
  return schema;
}

/** Runs the smoke test; resolves to the exit code. `io` replaces fetch and the output streams in tests. */
export async function main(argv: readonly string[], io: SmokeIo = {}): Promise<number> {
  const out = io.out ?? ((text: string) => process.stdout.write(`${text}\n`));
  const err = io.err ?? ((text: string) => process.stderr.write(`${text}\n`));
  const env = io.env ?? process.env;
  const doFetch = io.fetch ?? fetch;
  const options = parseArgs(argv);
  if (typeof options === 'string') {
    err(options);
    out(HELP);
    return 2;
  }
  if (options.help) {
    out(HELP);
    return 0;
  }
  if (!options.live) {
    err('Refusing to run without --live: a smoke run spends real searches.');
    out(HELP);
    return 2;
  }
  let local: { url: string; key: string; close(): Promise<void> } | undefined;
  if (options.upstream) {
    if (options.url || options.key) {
      err('--upstream runs its own service: give no --url or --key.');
      return 2;
    }
    if (!env.SERPAPI_API_KEY && !env.SERPAPI_SECRET_ID) {
      err("--upstream needs the team's SerpApi key: set SERPAPI_API_KEY or SERPAPI_SECRET_ID.");
      return 2;
    }
  } else if (!options.url || !(options.key ?? env.API_KEY)) {
    err('--live needs --url <stage URL> and --key <client key> (or API_KEY), or --upstream.');
    out(HELP);
    return 2;
  }
  const planned = ROUTES.map((route) => {
    const body = SMOKE_BODIES[route.name];
    if (!body) throw new Error(`${route.name} has no smoke body: add one to SMOKE_BODIES`);
    return { route, body, paid: paidCalls(route.name, body) };
  });

  const specFile = options.spec ?? fileURLToPath(new URL('../../openapi.json', import.meta.url));
  const document: Json = JSON.parse(readFileSync(specFile, 'utf8'));
  // The dialect of OpenAPI 3.1; patterns compiled with the `u` flag; `format` is an annotation in 2020-12.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  // The components once, under an id of their own; each answer's schema refers into them.
  const id = 'urn:search-citation-api:openapi';
  ajv.addSchema({ $id: id, components: document.components });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (schema: Json): ValidateFunction => {
    const ref = typeof schema.$ref === 'string' && schema.$ref.startsWith('#/') ? schema.$ref : undefined;
    const cacheKey = ref ?? JSON.stringify(schema);
    let validate = compiled.get(cacheKey);
    if (!validate) {
      validate = ajv.compile(ref ? { $ref: `${id}${ref}` } : { components: document.components, ...schema });
      compiled.set(cacheKey, validate);
    }
    return validate;
  };

  // With --upstream, SerpApi's answers reach the service through a recorder: the endpoint each answered,
  // its engine and its JSON.
  const seen: Seen[] = [];
  let current = '';
  if (options.upstream) {
    try {
      local = await startUpstreamService(env, (engine, json) => seen.push({ endpoint: current, engine, json }));
    } catch (error) {
      // lib/config.ts names every bad variable (never a key's value): say that, not a stack.
      if (error instanceof Error && error.message.startsWith('Invalid configuration: ')) {
        err(error.message);
        return 2;
      }
      throw error;
    }
  }
  try {
    const code = await callEveryRoute(
      planned,
      document,
      compile,
      local?.url ?? options.url ?? '',
      local?.key ?? options.key ?? env.API_KEY ?? '',
      out,
      doFetch,
      (endpoint) => {
        current = endpoint;
      },
    );
    out(
      options.upstream
        ? `\n${renderNotCarried(seen)}`
        : "\nUpstream fields not carried: listed with --upstream only (this run cannot see a deployment's answers from SerpApi).",
    );
    return code;
  } finally {
    await local?.close();
  }
}

/** One answer of SerpApi's that the run's own service received: for which endpoint, from which engine. */
export interface Seen {
  endpoint: string;
  engine: string;
  json: Record<string, unknown>;
}

/**
 * The fields of SerpApi's answers each endpoint does not carry (lib/reshape/carried.ts), one line per
 * endpoint and engine: every answer of that engine the endpoint received, taken together.
 */
export function renderNotCarried(seen: readonly Seen[]): string {
  const byEndpoint = new Map<string, Map<string, Set<string>>>();
  for (const { endpoint, engine, json } of seen) {
    const engines = byEndpoint.get(endpoint) ?? new Map<string, Set<string>>();
    byEndpoint.set(endpoint, engines);
    const fields = engines.get(engine) ?? new Set<string>();
    engines.set(engine, fields);
    for (const field of notCarried(CARRIED[endpoint]?.[engine] ?? [], json)) fields.add(field);
  }
  const lines = [
    'Upstream fields not carried (each endpoint, each SerpApi engine it called; lib/reshape/carried.ts lists what is):',
  ];
  for (const route of ROUTES) {
    for (const [engine, fields] of byEndpoint.get(route.name) ?? []) {
      const known = CARRIED[route.name]?.[engine] ? '' : ' (no list for this engine: every block)';
      lines.push(`  ${route.name} ${engine}${known}: ${fields.size === 0 ? '-' : [...fields].sort().join(', ')}`);
    }
  }
  if (lines.length === 1) lines.push('  (no answer from SerpApi was received)');
  return lines.join('\n');
}

/**
 * A recorder on loopback in front of SerpApi: each search is passed on as it came (the key included, never
 * printed), its answer passed back with its status, and every JSON answer handed to `onAnswer` with the
 * engine asked. Lives as long as the run.
 */
async function startRecorder(
  upstream: string,
  onAnswer: (engine: string, json: Record<string, unknown>) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const base = upstream.replace(/\/+$/, '');
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const engine = new URL(path, 'http://recorder').searchParams.get('engine') ?? '';
    fetch(`${base}${path}`, { signal: AbortSignal.timeout(60_000) })
      .then(async (answer) => {
        const text = await answer.text();
        const retryAfter = answer.headers.get('retry-after');
        res.writeHead(answer.status, {
          'Content-Type': answer.headers.get('content-type') ?? 'application/json',
          ...(retryAfter ? { 'Retry-After': retryAfter } : {}),
        });
        res.end(text);
        if (answer.status !== 200) return;
        try {
          const json: unknown = JSON.parse(text);
          if (json && typeof json === 'object' && !Array.isArray(json)) onAnswer(engine, json as Record<string, unknown>);
        } catch {
          // Not JSON: the service reports it; nothing to list.
        }
      })
      .catch(() => {
        res.writeHead(502, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: 'The smoke run could not reach the search provider' }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The service of this repository in this process, with the team's SerpApi key and a client key made up
 * for the run, its SerpApi calls going through the recorder. Config is read once, when the handlers load:
 * the environment is settled first.
 */
async function startUpstreamService(
  env: Record<string, string | undefined>,
  onAnswer: (engine: string, json: Record<string, unknown>) => void,
): Promise<{ url: string; key: string; close(): Promise<void> }> {
  const key = `smoke-${randomBytes(16).toString('hex')}`;
  const upstream = env.SERPAPI_BASE_URL ?? 'https://serpapi.com';
  const recorder = await startRecorder(upstream, onAnswer);
  Object.assign(process.env, {
    API_KEYS: key,
    // The run's own cap: the budget refuses any search beyond the table's total. Counted in this process's
    // memory, never in a deployment's table.
    SEARCHES_PER_HOUR: String(SMOKE_SEARCH_LIMIT),
    SEARCHES_PER_MONTH: '0',
    POWERTOOLS_LOG_LEVEL: env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
  });
  for (const name of ['CLIENT_KEYS_SECRET_ID', 'BUDGET_TABLE_NAME', 'CACHE_TABLE_NAME', 'POWERTOOLS_METRICS_NAMESPACE']) {
    delete process.env[name];
  }
  for (const name of ['SERPAPI_API_KEY', 'SERPAPI_SECRET_ID']) {
    if (env[name] !== undefined) process.env[name] = env[name];
  }
  try {
    // The service reads its config once, on import: the recorder's address must be set before. The
    // settings are then checked as meant for SerpApi itself (the key's form), not for the recorder.
    process.env.SERPAPI_BASE_URL = recorder.url;
    const { loadConfig } = await import('../config.js');
    loadConfig({ ...process.env, SERPAPI_BASE_URL: upstream });
    const { startLocalServer } = await import('./server.js');
    const server = await startLocalServer({ port: 0, host: '127.0.0.1' });
    return {
      url: server.url,
      key,
      close: async () => {
        await server.close();
        await recorder.close();
      },
    };
  } catch (error) {
    await recorder.close();
    throw error;
  }
}

async function callEveryRoute(
  planned: readonly { route: (typeof ROUTES)[number]; body: Record<string, unknown>; paid: number }[],
  document: Json,
  compile: (schema: Json) => ValidateFunction,
  url: string,
  key: string,
  out: (text: string) => void,
  doFetch: typeof fetch,
  onRoute: (endpoint: string) => void,
): Promise<number> {
  const total = planned.reduce((sum, call) => sum + call.paid, 0);
  const validateFailure = compile({ $ref: '#/components/schemas/Failure' });
  const base = url.replace(/\/+$/, '');
  const rows: SmokeRow[] = [];
  const details: string[] = [];
  let jobId = SMOKE_JOB_ID;
  for (const { route, body: given, paid } of planned) {
    const body = given.job_id === SMOKE_JOB_ID ? { ...given, job_id: jobId } : given;
    const success = route.successStatus ?? 200;
    const row: SmokeRow = { endpoint: route.name, path: route.path, status: 0, paid, missing: [], new: [], other: [] };
    rows.push(row);
    onRoute(route.name);
    let text: string;
    try {
      const response = await doFetch(`${base}${route.path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      row.status = response.status;
      text = await response.text();
      if (!response.headers.get('x-request-id')) row.other.push('(headers): no X-Request-Id');
    } catch (error) {
      row.other.push(`(call): ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      row.other.push(`(body): not JSON: ${text.slice(0, 120)}`);
      continue;
    }
    if (row.status === success) {
      if (route.name === 'jobs-submit') jobId = String((answer as { data?: { job_id?: unknown } }).data?.job_id ?? jobId);
      const validate = compile(responseSchema(document, route.path, success));
      if (!validate(answer)) Object.assign(row, classify(validate.errors ?? [], answer));
      const envelope = answer as { success?: unknown; message?: unknown };
      if (envelope?.success !== true && !row.other.some((line) => line.startsWith('success')))
        row.other.push('success: not true');
      if (typeof envelope?.message !== 'string' && !row.missing.includes('message')) row.other.push('message: not a string');
    } else {
      const failure = answer as { error?: { code?: string; details?: string } };
      row.other.push(`(status): ${row.status} ${failure?.error?.code ?? ''}: ${failure?.error?.details ?? ''}`.trim());
      if (!validateFailure(answer)) row.other.push('(body): not the documented failure envelope');
    }
    for (const line of row.other) details.push(`${route.name}: ${line}`);
  }

  const successOf = (path: string) => ROUTES.find((route) => route.path === path)?.successStatus ?? 200;
  const failed = rows.filter(
    (row) => row.status !== successOf(row.path) || row.missing.length + row.new.length + row.other.length > 0,
  );
  out(renderTable(rows));
  out(`\n${rows.length} endpoints, ${failed.length} failing; paid searches at most ${total} (limit ${SMOKE_SEARCH_LIMIT})`);
  if (details.length > 0) out(`\n${details.join('\n')}`);
  return failed.length === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Exits at once: with --upstream, the service's timers and sockets would keep the process alive.
  process.exit(await main(process.argv.slice(2)));
}
