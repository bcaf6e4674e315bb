/**
 * The MCP endpoint in the synthesized stack (as `cdk synth` makes it, cdk-nag included): POST /mcp a
 * Lambda proxy to its own function, every other method the gateway's 405, and the function built and
 * granted exactly as an endpoint's, since it runs every endpoint's handler: same runtime, settings,
 * environment, permissions and secret access; one bundled file, no node_modules. Every function's bundle
 * and the style pack's layer are checked here too: this is the suite's one synthesis with bundling
 * (test/infra/stack.test.ts skips it).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../infra/app.js';
import { LAYER_ROOT, STYLE_PACK_IN_LAYER, STYLE_PACK_ROUTES, STYLE_PACK_SOURCE } from '../../infra/bundling.js';
import { JOBS_WORKER_DESCRIPTION, JOBS_WORKER_ROUTE } from '../../infra/jobs.js';
import { MCP_ROUTE } from '../../infra/mcp.js';
import type { SearchCitationApiStack } from '../../infra/stack.js';
import { ROUTES } from '../../lib/routes.js';

const CDK_CONTEXT = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context as Record<
  string,
  unknown
>;

// biome-ignore lint/suspicious/noExplicitAny: a synthesized template is arbitrary JSON, read by path
type Json = any;
type Resource = { Type: string; Properties: Record<string, Json> };

let stack: SearchCitationApiStack;
let assembly: CloudAssembly;
let resources: Record<string, Resource>;

// The one synthesis of the suite that bundles every function (esbuild, synchronously) and runs cdk-nag:
// on a busy machine that takes minutes, so the limits fit that work, not a quiet machine's.
vi.setConfig({ testTimeout: 300_000 });

beforeAll(() => {
  // As the README's deploy does: the synth refuses to create the secrets with no admin to write them.
  const built = createApp({
    context: {
      ...CDK_CONTEXT,
      secretAdminArns: 'arn:aws:iam::123456789012:role/Deployer',
      alarmEmail: 'ops@example.com',
      crossrefMailto: 'ops@example.com',
    },
  });
  stack = built.stack;
  assembly = built.app.synth();
  resources = Template.fromStack(stack).toJSON().Resources;
}, 900_000);

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

function resourcePath(logicalId: string): string {
  const resource = resources[logicalId] as Resource;
  const parent = resource.Properties.ParentId;
  return `${parent?.Ref ? resourcePath(parent.Ref) : ''}/${resource.Properties.PathPart}`;
}

/** The function whose description names this path ("… (POST <path>)"). */
function functionFor(path: string): [string, Resource] {
  const found = ofType('AWS::Lambda::Function').filter(([, fn]) => String(fn.Properties.Description).endsWith(`(POST ${path})`));
  expect(found, path).toHaveLength(1);
  return found[0] as [string, Resource];
}

/** A role's inline policy statements, without the ids of the role's own log group and of the function. */
function roleStatements(roleId: string) {
  const policies = ofType('AWS::IAM::Policy').filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === roleId));
  return policies
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[])
    .filter((s) => s.Sid !== undefined)
    .map((s) => ({ Sid: s.Sid, Action: s.Action, Resource: s.Resource }))
    .sort((a, b) => String(a.Sid).localeCompare(String(b.Sid)));
}

describe('the MCP endpoint in the stack', () => {
  it('routes POST /mcp to its own function and answers every other method with the gateway’s 405', () => {
    const methods = ofType('AWS::ApiGateway::Method').filter(([, m]) => resourcePath(m.Properties.ResourceId.Ref) === '/mcp');
    const post = methods.find(([, m]) => m.Properties.HttpMethod === 'POST')?.[1];
    expect(post?.Properties.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
    expect(JSON.stringify(post?.Properties.Integration.Uri)).toContain(functionFor(MCP_ROUTE.path)[0]);
    const other = methods.find(([, m]) => m.Properties.HttpMethod === 'ANY')?.[1];
    expect(other?.Properties.Integration.Type).toBe('MOCK');
    expect(other?.Properties.Integration.IntegrationResponses[0].StatusCode).toBe('405');
    expect(methods).toHaveLength(2);
  });

  it('builds and configures the function as a paid endpoint’s: settings, environment, grants, its own cache keys and the style pack', () => {
    const [, mcp] = functionFor(MCP_ROUTE.path);
    const [, endpoint] = functionFor('/v1/web-search/alpha');
    // The endpoint that keeps the record sources' pace, as the MCP function does for its citation tools.
    const [, citing] = functionFor('/v1/cite/search');
    for (const key of ['Runtime', 'Architectures', 'MemorySize', 'Timeout', 'ReservedConcurrentExecutions', 'TracingConfig']) {
      expect(mcp.Properties[key], key).toEqual(endpoint.Properties[key]);
    }
    // The same, but for the cache keys: its own prefix, so no tool call can write an endpoint's answers.
    expect(mcp.Properties.Environment.Variables.CACHE_KEY_PREFIX).toBe('mcp/');
    // And the style pack's folder: its citation tools read the pack from the layer (tested below). And the
    // jobs' table, bucket and queue: its job tools run the job routes (their grants: least-privilege.test.ts).
    const { STYLE_PACK_DIR, PACE_TABLE_NAME, JOBS_TABLE_NAME, JOBS_BUCKET_NAME, JOBS_QUEUE_URL, JOBS_TTL_DAYS, ...variables } =
      mcp.Properties.Environment.Variables;
    expect(STYLE_PACK_DIR).toBe('/opt/csl-style-pack');
    expect([JOBS_TABLE_NAME, JOBS_BUCKET_NAME, JOBS_QUEUE_URL, JOBS_TTL_DAYS].every((v) => v !== undefined)).toBe(true);
    // And the pace table: its citation tools keep Crossref's and DataCite's pace with the deployment.
    expect(PACE_TABLE_NAME).toEqual(citing.Properties.Environment.Variables.PACE_TABLE_NAME);
    expect({ ...variables, CACHE_KEY_PREFIX: 'web-search-alpha/' }).toEqual(endpoint.Properties.Environment.Variables);
    expect(mcp.Properties.Handler).toBe('index.handler');
    // The grants of the endpoint that makes paid calls and keeps the record sources' pace (both secrets, its
    // own cache keys, the budget counter, the pace table) and the job routes' uses; nothing more.
    const mcpStatements = roleStatements(mcp.Properties.Role['Fn::GetAtt'][0]);
    expect(mcpStatements.map((s) => s.Sid)).toEqual([
      'KeepPaces',
      'ReadClientKeys',
      'ReadUpstreamKey',
      'ReserveSearches',
      'UseJobBucket',
      'UseJobQueue',
      'UseJobTable',
      'UseOwnCacheKeys',
    ]);
    expect(mcpStatements.filter((s) => !String(s.Sid).startsWith('UseJob'))).toEqual(
      roleStatements(citing.Properties.Role['Fn::GetAtt'][0]),
    );
  });

  it('lets the function read the client keys the secret policy guards', () => {
    const [, mcp] = functionFor(MCP_ROUTE.path);
    const role = mcp.Properties.Role['Fn::GetAtt'][0];
    const readers = ofType('AWS::SecretsManager::ResourcePolicy').flatMap(([, p]) =>
      (p.Properties.ResourcePolicy.Statement as Json[])
        .filter((s) => s.Sid === 'OnlyServiceAndAdminsRead')
        .map((s) => JSON.stringify(s.Condition)),
    );
    expect(readers.length).toBeGreaterThan(0);
    for (const condition of readers) expect(condition).toContain(`"${role}"`);
  });

  it('ships one bundled file and its map: no node_modules (the SDK’s express and hono stay out)', () => {
    const [id, mcp] = functionFor(MCP_ROUTE.path);
    const assets = JSON.parse(readFileSync(join(assembly.directory, `${stack.artifactId}.assets.json`), 'utf8')).files;
    const hash = String(mcp.Properties.Code.S3Key).replace(/\.zip$/, '');
    const dir = join(assembly.directory, assets[hash]?.source.path ?? `missing asset for ${id}`);
    // Nothing else: the CSL style pack its tools read comes from the layer (tested below).
    expect(readdirSync(dir).sort()).toEqual(['index.mjs', 'index.mjs.map']);
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    // Every route's handler is in it (the tools run them in-process), found by the glob import.
    for (const name of ['web-search-alpha', 'cite-search', 'usage']) expect(code).toContain(`functions/${name}.ts`);
    expect(code).not.toMatch(/from ?["']express["']|require\(["']express["']\)|from ?["']hono["']/);
  });
});

describe("every function's bundle", () => {
  it("bundles each function, the endpoints' and the MCP server's, into its own minified ESM asset with a source map", () => {
    const assets = JSON.parse(readFileSync(join(assembly.directory, `${stack.artifactId}.assets.json`), 'utf8')).files as Record<
      string,
      { source: { path: string } }
    >;
    const bundles = ofType('AWS::Lambda::Function').map(([id, fn]) => {
      const hash = String(fn.Properties.Code.S3Key).replace(/\.zip$/, '');
      const dir = join(assembly.directory, assets[hash]?.source.path ?? `missing asset for ${id}`);
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(JSON.parse(readFileSync(join(dir, 'index.mjs.map'), 'utf8')).mappings.length).toBeGreaterThan(0);
      // ESM (the createRequire banner is an import statement) and minified (lines run to thousands of characters).
      expect(code.startsWith('import { createRequire as __createRequire }')).toBe(true);
      // (The longest line, not the average: the SDK's classic zod in the MCP bundle keeps multi-line templates.)
      expect(Math.max(...code.split('\n').map((line) => line.length))).toBeGreaterThan(10_000);
      // No function carries the style pack: index.mjs and its map, nothing else.
      expect(readdirSync(dir, { recursive: true }).map(String).sort(), String(fn.Properties.Description)).toEqual([
        'index.mjs',
        'index.mjs.map',
      ]);
      return code;
    });
    // Each endpoint's, the MCP server's, the authorizer's and the jobs' worker's.
    expect(new Set(bundles).size).toBe(ROUTES.length + 3);
  });
});

describe('the style pack’s layer', () => {
  it('holds the whole pack, once, where the functions that read it are told to look under /opt', () => {
    const assets = JSON.parse(readFileSync(join(assembly.directory, `${stack.artifactId}.assets.json`), 'utf8')).files as Record<
      string,
      { source: { path: string } }
    >;
    const layers = ofType('AWS::Lambda::LayerVersion');
    expect(layers).toHaveLength(1);
    const [layerId, layer] = layers[0] as [string, Resource];
    const hash = String(layer.Properties.Content.S3Key).replace(/\.zip$/, '');
    const dir = join(assembly.directory, assets[hash]?.source.path ?? `missing asset for ${layerId}`);
    const pack = readdirSync(new URL(`../../${STYLE_PACK_SOURCE}/`, import.meta.url)).sort();
    expect(pack).toContain('catalogue.json.br');
    // The layer's zip holds the pack's folder and nothing else.
    expect(readdirSync(dir, { recursive: true }).map(String).sort()).toEqual(
      [STYLE_PACK_IN_LAYER, ...pack.map((name) => join(STYLE_PACK_IN_LAYER, name))].sort(),
    );
    for (const name of pack) {
      expect(
        readFileSync(join(dir, STYLE_PACK_IN_LAYER, name)).equals(
          readFileSync(new URL(`../../${STYLE_PACK_SOURCE}/${name}`, import.meta.url)),
        ),
        name,
      ).toBe(true);
    }
    // Lambda extracts the layer into /opt: each reader's STYLE_PACK_DIR is the pack's folder there.
    const readers = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Layers !== undefined);
    const pathOf = (description: string) =>
      description === JOBS_WORKER_DESCRIPTION ? JOBS_WORKER_ROUTE.path : /\(POST (\S+)\)$/.exec(description)?.[1];
    expect(readers.map(([, fn]) => pathOf(fn.Properties.Description)).sort()).toEqual(
      [...ROUTES, MCP_ROUTE, JOBS_WORKER_ROUTE]
        .filter((route) => STYLE_PACK_ROUTES.has(route.name))
        .map((route) => route.path)
        .sort(),
    );
    for (const [, fn] of readers) {
      expect(fn.Properties.Layers).toEqual([{ Ref: layerId }]);
      const told = String(fn.Properties.Environment.Variables.STYLE_PACK_DIR);
      expect(told.startsWith(`${LAYER_ROOT}/`), told).toBe(true);
      expect(existsSync(join(dir, told.slice(LAYER_ROOT.length), 'catalogue.json.br')), told).toBe(true);
    }
  });
});
