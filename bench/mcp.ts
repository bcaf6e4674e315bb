/**
 * The MCP function (POST /mcp) in `npm run bench`: its deployed bundle (built by the stack's own construct,
 * infra/mcp.ts) and its cold start, loaded and invoked in a fresh node, for what a new container can meet
 * first: `initialize`, `tools/list`, `initialize` then `tools/list` in the same process (what a client's
 * connection costs a cold container), and a `tools/call` of a web search (answered by the fake upstream);
 * beside the cold start of a small endpoint's own function (web-search-alpha), built the same way, which the
 * MCP function's `initialize` + `tools/list` is held to (at most 2×). An endpoint's module is loaded on the
 * first call of its tool (lib/mcp/server.ts); the bundle still holds every endpoint's handler.
 *
 * Run by bench/run.ts (the cold-start section), or alone: `npx tsx bench/mcp.ts [rounds]` starts its own fake
 * upstream and prints the section as JSON. As a child process (BENCH_MCP_BUILD=1) it only builds the
 * bundles, since CDK's bundling writes to stderr and aws-cdk-lib is heavy to hold in the load generator.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { toApiGatewayEvent } from '../lib/local/apigw-event.js';
import { serveCommands, startChild } from '../test/support/child-process.js';
import { apiGatewayEvent, type ColdStartRun, type ColdStartSummary, coldStartOnce, summarise } from './cold-start.js';
import { type DeployedBytes, deployedBytes } from './deployed.js';
import { BUILD_DIR } from './paths.js';

interface BuiltFile {
  file: string;
  bytes: number;
  mapBytes: number;
  /** Everything its asset holds, unzipped and zipped (bench/deployed.ts). */
  deployed: DeployedBytes;
}

interface McpBundle extends BuiltFile {
  /** The function's environment as deployed, plain strings only (secret ids are per run). */
  environment: Record<string, string>;
  /** STYLE_PACK_DIR with the style pack layer's folder here standing for /opt (infra/style-pack-layer.ts). */
  localEnvironment: Record<string, string>;
  /** What the style pack's layer deploys, once (bench/deployed.ts). */
  layer: DeployedBytes;
  /** The layers the function uses, by name ('style-pack'). */
  layers: string[];
  /** The small endpoint the MCP function's cold start is compared with, built by the same construct. */
  endpoint: BuiltFile & { name: string };
}

/** The endpoint whose cold start is the yardstick: a web search, the smallest kind of handler. */
const SMALL_ENDPOINT = { name: 'web-search-alpha', path: '/v1/web-search/alpha' } as const;

async function buildMcpBundle(): Promise<McpBundle> {
  const [
    { App, Stack },
    apigw,
    { RetentionDays },
    { McpEndpoint },
    { ApiFunction },
    { DEFAULT_SETTINGS },
    { ROUTES },
    { StylePackLayer },
    { LAYER_ROOT },
  ] = await Promise.all([
    import('aws-cdk-lib'),
    import('aws-cdk-lib/aws-apigateway'),
    import('aws-cdk-lib/aws-logs'),
    import('../infra/mcp.js'),
    import('../infra/api-function.js'),
    import('../infra/settings.js'),
    import('../lib/routes.js'),
    import('../infra/style-pack-layer.js'),
    import('../infra/bundling.js'),
  ]);
  const outdir = join(BUILD_DIR, 'cdk.out.mcp');
  rmSync(outdir, { recursive: true, force: true });
  const app = new App({ outdir });
  const stack = new Stack(app, 'BenchMcp', { env: { account: '000000000000', region: 'us-east-1' } });
  const secret = (name: string) => ({ id: name, arn: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${name}-AbCdEf` });
  const stylePack = new StylePackLayer(stack, 'StylePack');
  const layerDir = join(outdir, (stylePack.layer.node.findChild('Code') as unknown as { assetPath: string }).assetPath);
  const functionProps = {
    stylePackLayer: stylePack.layer,
    memorySize: DEFAULT_SETTINGS.memorySize,
    logRetention: RetentionDays.ONE_MONTH,
    tracing: DEFAULT_SETTINGS.tracing,
    sourceMaps: DEFAULT_SETTINGS.sourceMaps,
    clientKeysSecret: secret('client-keys'),
    upstreamKeySecret: secret('upstream-key'),
  };
  const endpoint = new McpEndpoint(stack, 'Mcp', { api: new apigw.RestApi(stack, 'Api'), functionProps });
  const route = ROUTES.find((r) => r.name === SMALL_ENDPOINT.name);
  if (!route) throw new Error(`${SMALL_ENDPOINT.name} is not in the routes table`);
  const small = new ApiFunction(stack, 'SmallEndpoint', { ...functionProps, route });
  const built = (fn: { node: { findChild(id: string): unknown } }): BuiltFile => {
    const asset = fn.node.findChild('Code') as { assetPath: string };
    const file = join(outdir, asset.assetPath, 'index.mjs');
    let mapBytes = 0;
    try {
      mapBytes = statSync(`${file}.map`).size;
    } catch {
      // No source maps in this build.
    }
    return { file, bytes: statSync(file).size, mapBytes, deployed: deployedBytes(join(outdir, asset.assetPath)) };
  };
  const resolved = stack.resolve(
    (endpoint.fn.function.node.defaultChild as { environment?: unknown } | undefined)?.environment,
  ) as { variables?: Record<string, unknown> } | undefined;
  const environment: Record<string, string> = {};
  const localEnvironment: Record<string, string> = {};
  for (const [name, value] of Object.entries(resolved?.variables ?? {})) {
    if (typeof value === 'string' && !name.endsWith('_SECRET_ID')) {
      environment[name] = value;
      if (value.startsWith(`${LAYER_ROOT}/`)) localEnvironment[name] = join(layerDir, value.slice(LAYER_ROOT.length));
    }
  }
  const cfn = endpoint.fn.function.node.defaultChild as { layers?: unknown };
  const layerRef = JSON.stringify(stack.resolve(stylePack.layer.layerVersionArn));
  const layers = ((stack.resolve(cfn.layers) ?? []) as unknown[]).map((ref) => {
    if (JSON.stringify(ref) !== layerRef) throw new Error(`mcp: a layer the bench does not build, ${JSON.stringify(ref)}`);
    return 'style-pack';
  });
  return {
    ...built(endpoint.fn.function),
    environment,
    localEnvironment,
    layers,
    layer: deployedBytes(layerDir),
    endpoint: { name: SMALL_ENDPOINT.name, ...built(small.function) },
  };
}

/** The gateway event of one MCP POST, built by the local server's own converter. */
function mcpEvent(clientKey: string, message: unknown): unknown {
  const body = JSON.stringify(message);
  const headers = {
    Host: 'api.example.com',
    'User-Agent': 'bench',
    Authorization: `Bearer ${clientKey}`,
    Accept: 'application/json, text/event-stream',
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
  };
  const request = {
    rawHeaders: Object.entries(headers).flat(),
    headers: { 'user-agent': headers['User-Agent'] },
    url: '/mcp',
    method: 'POST',
    httpVersion: '1.1',
    socket: { remoteAddress: '203.0.113.7' },
  } as unknown as IncomingMessage;
  return toApiGatewayEvent(request, '/mcp', '/mcp', body, randomUUID());
}

const FIRST_REQUESTS = {
  initialize: {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  tools_list: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  tools_call: {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'web_search_alpha', arguments: { q: 'coffee', no_cache: true } },
  },
} as const;

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** Starts every job once (reading its file from disk is not counted), then `rounds` times in rotation. */
async function coldStartRounds(
  jobs: readonly { key: string; file: string; eventFile: string; secondEventFile?: string; env: Record<string, string> }[],
  rounds: number,
): Promise<Map<string, ColdStartRun[]>> {
  const runs = new Map<string, ColdStartRun[]>(jobs.map((job) => [job.key, []]));
  const files = new Set<string>();
  for (const job of jobs) {
    if (files.has(job.file)) continue;
    files.add(job.file);
    await coldStartOnce(job.file, job.eventFile, job.env);
  }
  for (let round = 0; round < rounds; round++) {
    for (const job of jobs) {
      runs.get(job.key)?.push(await coldStartOnce(job.file, job.eventFile, job.env, job.secondEventFile));
    }
  }
  return runs;
}

/** Builds the MCP bundle and a small endpoint's, and cold-starts them `rounds` times per first request. */
export async function mcpSection(options: {
  upstreamUrl: string;
  /** The endpoints' deployed environment; the MCP function's own when not given. */
  deployedEnvironment?: Record<string, string>;
  clientKey: string;
  upstreamKey: string;
  rounds: number;
  log: (line: string) => void;
}): Promise<Record<string, unknown>> {
  options.log('mcp: building the MCP function with its stack construct (infra/mcp.ts), and a web search beside it');
  const builder = await startChild<McpBundle>(new URL('./mcp.ts', import.meta.url), { BENCH_MCP_BUILD: '1' }, { quiet: true });
  await builder.stop();
  const bundle = builder.ready;
  const eventsDir = join(BUILD_DIR, 'events');
  mkdirSync(eventsDir, { recursive: true });
  const env = {
    ...(options.deployedEnvironment ?? bundle.environment),
    // Its citation tools read the style pack from the layer's folder, standing here for /opt.
    ...bundle.localEnvironment,
    SERPAPI_BASE_URL: options.upstreamUrl,
    API_KEYS: options.clientKey,
    SERPAPI_API_KEY: options.upstreamKey,
  };
  const eventFiles: Record<string, string> = {};
  for (const [name, message] of Object.entries(FIRST_REQUESTS)) {
    eventFiles[name] = join(eventsDir, `mcp-${name}.json`);
    writeFileSync(eventFiles[name], JSON.stringify(mcpEvent(options.clientKey, message)));
  }
  const endpointEvent = join(eventsDir, 'mcp-yardstick-endpoint.json');
  writeFileSync(
    endpointEvent,
    JSON.stringify(apiGatewayEvent(SMALL_ENDPOINT.path, JSON.stringify({ q: 'coffee', no_cache: true }), options.clientKey)),
  );
  const file = bundle.file;
  const jobs = [
    { key: 'initialize', file, eventFile: eventFiles.initialize as string, env },
    { key: 'tools_list', file, eventFile: eventFiles.tools_list as string, env },
    {
      key: 'initialize_then_tools_list',
      file,
      eventFile: eventFiles.initialize as string,
      secondEventFile: eventFiles.tools_list as string,
      env,
    },
    { key: 'tools_call', file, eventFile: eventFiles.tools_call as string, env },
    { key: `endpoint_${SMALL_ENDPOINT.name}`, file: bundle.endpoint.file, eventFile: endpointEvent, env },
  ];
  options.log(`mcp: cold start × ${options.rounds} fresh processes per first request`);
  const summaries: Record<string, ColdStartSummary> = {};
  for (const [key, runs] of await coldStartRounds(jobs, options.rounds)) summaries[key] = summarise(runs);
  const pair = summaries.initialize_then_tools_list?.median_ms ?? Number.NaN;
  const yardstick = summaries[`endpoint_${SMALL_ENDPOINT.name}`]?.median_ms ?? Number.NaN;
  options.log(
    `mcp: bundle ${round(bundle.bytes / 1024)} KiB; cold start median ${Object.entries(summaries)
      .map(([name, s]) => `${name} ${round(s.median_ms)} ms (load ${round(s.load_ms)} ms)`)
      .join(', ')}; initialize + tools/list is ${round(pair / yardstick, 2)}× the endpoint's (target ≤ 2×)`,
  );
  return {
    bundle_kib: round(bundle.bytes / 1024),
    source_map_kib: round(bundle.mapBytes / 1024),
    // What the function deploys: its bundle, the map and any data beside them (bench/deployed.ts); the style
    // pack comes from its layer, deployed once for the four functions that read it.
    beside_kib: round(bundle.deployed.beside / 1024),
    zip_kib: round(bundle.deployed.zip / 1024),
    layers: bundle.layers,
    style_pack_layer_zip_kib: round(bundle.layer.zip / 1024),
    yardstick_endpoint: {
      name: SMALL_ENDPOINT.name,
      bundle_kib: round(bundle.endpoint.bytes / 1024),
      zip_kib: round(bundle.endpoint.deployed.zip / 1024),
    },
    initialize_tools_list_vs_endpoint: round(pair / yardstick, 2),
    initialize_tools_list_target_ratio: 2,
    cold_start: Object.fromEntries(
      Object.entries(summaries).map(([name, s]) => [
        name,
        {
          median_ms: round(s.median_ms),
          min_ms: round(s.min_ms),
          node_boot_ms: round(s.boot_ms),
          load_ms: round(s.load_ms),
          first_invoke_ms: round(s.invoke_ms),
          ...(s.second_invoke_ms === undefined ? {} : { second_invoke_ms: round(s.second_invoke_ms) }),
          rss_mib: round(s.rss_mib),
          status: s.status,
          runs: s.runs,
        },
      ]),
    ),
  };
}

if (process.env.BENCH_MCP_BUILD === '1') {
  serveCommands(await buildMcpBundle(), {});
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Alone: its own fake upstream (bench/upstream.ts), the bundles' own environment.
  const rounds = Number(process.argv[2] ?? '5');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('rounds: must be a whole number ≥ 1');
  const upstream = await startChild<{ url: string }>(new URL('./upstream.ts', import.meta.url), {});
  try {
    const section = await mcpSection({
      upstreamUrl: upstream.ready.url,
      clientKey: 'bench-client-key-0123456789',
      upstreamKey: 'bench-upstream-key-9876543210',
      rounds,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(`${JSON.stringify(section, null, 2)}\n`);
  } finally {
    await upstream.stop();
  }
}
