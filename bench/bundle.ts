/**
 * The bundles the stack deploys, built by the stack's own construct (infra/api-function.ts): the same
 * NodejsFunction with the same esbuild options, so nothing here can drift from what `cdk deploy` ships; and
 * the style pack's layer, built by its own (infra/style-pack-layer.ts), whose folder stands for /opt when a
 * bundle that reads the pack is started here. The empty baseline handler goes through the same construct.
 * Runs as a child process because CDK's bundling writes its progress to stderr and aws-cdk-lib is heavy to
 * hold in the load generator.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { ApiFunction } from '../infra/api-function.js';
import { LAYER_ROOT } from '../infra/bundling.js';
import { DEFAULT_SETTINGS } from '../infra/settings.js';
import { StylePackLayer } from '../infra/style-pack-layer.js';
import { ROUTES, type Route } from '../lib/routes.js';
import { serveCommands } from '../test/support/child-process.js';
import { type DeployedBytes, deployedBytes } from './deployed.js';
import { BUILD_DIR, EMPTY_HANDLER } from './paths.js';

export interface BuiltBundle {
  /** functions/ file name, or EMPTY_HANDLER. */
  name: string;
  file: string;
  bytes: number;
  mapBytes: number;
  /** Everything its asset holds, unzipped and zipped (bench/deployed.ts). */
  deployed: DeployedBytes;
  /** The function's environment as deployed, with only plain strings (secret ids are per run). */
  environment: Record<string, string>;
  /** The layers it uses, by name (BuiltBundles.layers). */
  layers: string[];
  /** Its environment's variables naming a place under /opt, with the layer's folder here in its stead. */
  localEnvironment: Record<string, string>;
}

export interface BuiltBundles {
  bundles: BuiltBundle[];
  /** What each layer deploys, by name: 'style-pack', the CSL style pack's (infra/style-pack-layer.ts). */
  layers: Record<string, DeployedBytes>;
}

// The construct builds functions/<name>.ts; this name leads it to the baseline beside this file.
const emptyRoute: Route = {
  path: '/bench/empty',
  name: `../bench/${EMPTY_HANDLER}`,
  summary: 'Empty handler',
  tag: 'Web search',
  // Built as a paid route is, with every grant and variable of one.
  needs: { paidCalls: true, upstreamKey: true, budget: 'reserve', sharedCache: true },
};

function build(): BuiltBundles {
  const outdir = join(BUILD_DIR, 'cdk.out');
  rmSync(outdir, { recursive: true, force: true });
  const app = new App({ outdir });
  const stack = new Stack(app, 'Bench', { env: { account: '000000000000', region: 'us-east-1' } });
  const secret = (name: string) => ({ id: name, arn: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${name}-AbCdEf` });
  const stylePack = new StylePackLayer(stack, 'StylePack');
  const layerDir = join(outdir, (stylePack.layer.node.findChild('Code') as Asset).assetPath);
  const layerNames = new Map([[JSON.stringify(stack.resolve(stylePack.layer.layerVersionArn)), 'style-pack']]);
  const bundles = [emptyRoute, ...ROUTES].map((route) => {
    const construct = new ApiFunction(stack, route.name.replace(/\W/g, ''), {
      route,
      memorySize: DEFAULT_SETTINGS.memorySize,
      logRetention: RetentionDays.ONE_MONTH,
      tracing: DEFAULT_SETTINGS.tracing,
      sourceMaps: DEFAULT_SETTINGS.sourceMaps,
      clientKeysSecret: secret('client-keys'),
      upstreamKeySecret: secret('upstream-key'),
      stylePackLayer: stylePack.layer,
    });
    const asset = construct.function.node.findChild('Code') as Asset;
    const dir = join(outdir, asset.assetPath);
    const file = join(dir, 'index.mjs');
    let mapBytes = 0;
    try {
      mapBytes = statSync(`${file}.map`).size;
    } catch {
      // No source maps in this build.
    }
    const cfn = construct.function.node.defaultChild as CfnFunction;
    const resolved = stack.resolve(cfn.environment) as { variables?: Record<string, unknown> } | undefined;
    const environment: Record<string, string> = {};
    const localEnvironment: Record<string, string> = {};
    for (const [name, value] of Object.entries(resolved?.variables ?? {})) {
      if (typeof value === 'string' && !name.endsWith('_SECRET_ID')) {
        environment[name] = value;
        if (value.startsWith(`${LAYER_ROOT}/`)) localEnvironment[name] = join(layerDir, value.slice(LAYER_ROOT.length));
      }
    }
    return {
      name: route.name === emptyRoute.name ? EMPTY_HANDLER : route.name,
      file,
      bytes: statSync(file).size,
      mapBytes,
      deployed: deployedBytes(dir),
      environment,
      layers: ((stack.resolve(cfn.layers) ?? []) as unknown[]).map((ref) => {
        const name = layerNames.get(JSON.stringify(ref));
        if (!name) throw new Error(`${route.name}: a layer the bench does not build, ${JSON.stringify(ref)}`);
        return name;
      }),
      localEnvironment,
    };
  });
  return { bundles, layers: { 'style-pack': deployedBytes(layerDir) } };
}

serveCommands(build(), {});
