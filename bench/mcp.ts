/**
 * The MCP function (POST /mcp) in `npm run bench`: its deployed bundle (built by the stack's own construct,
 * infra/mcp.ts) and its cold start, loaded and invoked once in a fresh node, for the two requests a new
 * container can meet first: `initialize` and a `tools/call` of a web search (answered by the fake
 * upstream). Kept apart from the endpoints' bundle target: this function holds every endpoint's handler.
 *
 * Run by bench/run.ts; as a child process (BENCH_MCP_BUILD=1) it only builds the bundle, since CDK's
 * bundling writes to stderr and aws-cdk-lib is heavy to hold in the load generator.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { toApiGatewayEvent } from '../lib/local/apigw-event.js';
import { serveCommands, startChild } from '../test/support/child-process.js';
import { type ColdStartSummary, coldStarts, summarise } from './cold-start.js';
import { BUILD_DIR } from './paths.js';

interface McpBundle {
  file: string;
  bytes: number;
  mapBytes: number;
}

async function buildMcpBundle(): Promise<McpBundle> {
  const [{ App, Stack }, apigw, { RetentionDays }, { McpEndpoint }, { DEFAULT_SETTINGS }] = await Promise.all([
    import('aws-cdk-lib'),
    import('aws-cdk-lib/aws-apigateway'),
    import('aws-cdk-lib/aws-logs'),
    import('../infra/mcp.js'),
    import('../infra/settings.js'),
  ]);
  const outdir = join(BUILD_DIR, 'cdk.out.mcp');
  rmSync(outdir, { recursive: true, force: true });
  const app = new App({ outdir });
  const stack = new Stack(app, 'BenchMcp', { env: { account: '000000000000', region: 'us-east-1' } });
  const secret = (name: string) => ({ id: name, arn: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${name}-AbCdEf` });
  const endpoint = new McpEndpoint(stack, 'Mcp', {
    api: new apigw.RestApi(stack, 'Api'),
    functionProps: {
      memorySize: DEFAULT_SETTINGS.memorySize,
      logRetention: RetentionDays.ONE_MONTH,
      tracing: DEFAULT_SETTINGS.tracing,
      sourceMaps: DEFAULT_SETTINGS.sourceMaps,
      clientKeysSecret: secret('client-keys'),
      upstreamKeySecret: secret('upstream-key'),
    },
  });
  const asset = endpoint.fn.function.node.findChild('Code') as unknown as { assetPath: string };
  const file = join(outdir, asset.assetPath, 'index.mjs');
  let mapBytes = 0;
  try {
    mapBytes = statSync(`${file}.map`).size;
  } catch {
    // No source maps in this build.
  }
  return { file, bytes: statSync(file).size, mapBytes };
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
  tools_call: {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'web_search_alpha', arguments: { q: 'coffee', no_cache: true } },
  },
} as const;

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** Builds the MCP bundle and cold-starts it `rounds` times per first request. */
export async function mcpSection(options: {
  upstreamUrl: string;
  deployedEnvironment: Record<string, string>;
  clientKey: string;
  upstreamKey: string;
  rounds: number;
  log: (line: string) => void;
}): Promise<Record<string, unknown>> {
  options.log('mcp: building the MCP function with its stack construct (infra/mcp.ts)');
  const builder = await startChild<McpBundle>(new URL('./mcp.ts', import.meta.url), { BENCH_MCP_BUILD: '1' }, { quiet: true });
  await builder.stop();
  const bundle = builder.ready;
  const eventsDir = join(BUILD_DIR, 'events');
  mkdirSync(eventsDir, { recursive: true });
  const env = {
    ...options.deployedEnvironment,
    SERPAPI_BASE_URL: options.upstreamUrl,
    API_KEYS: options.clientKey,
    SERPAPI_API_KEY: options.upstreamKey,
  };
  const jobs = Object.entries(FIRST_REQUESTS).map(([name, message]) => {
    const eventFile = join(eventsDir, `mcp-${name}.json`);
    writeFileSync(eventFile, JSON.stringify(mcpEvent(options.clientKey, message)));
    return { key: name, file: bundle.file, eventFile, env };
  });
  options.log(`mcp: cold start × ${options.rounds} fresh processes per first request`);
  const summaries: Record<string, ColdStartSummary> = {};
  for (const [key, runs] of await coldStarts(jobs, options.rounds)) summaries[key] = summarise(runs);
  options.log(
    `mcp: bundle ${round(bundle.bytes / 1024)} KiB; cold start median ${Object.entries(summaries)
      .map(([name, s]) => `${name} ${round(s.median_ms)} ms (load ${round(s.load_ms)} ms)`)
      .join(', ')}`,
  );
  return {
    bundle_kib: round(bundle.bytes / 1024),
    source_map_kib: round(bundle.mapBytes / 1024),
    cold_start: Object.fromEntries(
      Object.entries(summaries).map(([name, s]) => [
        name,
        {
          median_ms: round(s.median_ms),
          min_ms: round(s.min_ms),
          node_boot_ms: round(s.boot_ms),
          load_ms: round(s.load_ms),
          first_invoke_ms: round(s.invoke_ms),
          rss_mib: round(s.rss_mib),
          status: s.status,
          runs: s.runs,
        },
      ]),
    ),
  };
}

if (process.env.BENCH_MCP_BUILD === '1') serveCommands(await buildMcpBundle(), {});
