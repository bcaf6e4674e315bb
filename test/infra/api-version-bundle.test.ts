/**
 * A deployed function has no package.json beside it: the API's version must be compiled into its bundle
 * (lib/version.ts imports it), never read from disk at run time. This bundles one function with the
 * stack's esbuild options into a directory that holds nothing else, imports it there and checks that its
 * answers carry the version.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPLOYED_ESBUILD_OPTIONS } from '../../infra/bundling.js';
import type { LambdaHandler } from '../../lib/middleware/index.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const outDir = mkdtempSync(join(tmpdir(), 'version-bundle-'));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the API version in a deployed bundle', () => {
  it('is compiled in: the function answers with it from a directory without package.json', async () => {
    const result = await build({
      entryPoints: [join(ROOT, 'functions/usage.ts')],
      ...DEPLOYED_ESBUILD_OPTIONS,
      // Run here, on this machine's Node, with nothing outside the bundle (the runtime's AWS SDK included).
      target: 'node20',
      external: [],
      outfile: join(outDir, 'index.mjs'),
      metafile: true,
      logLevel: 'silent',
    });
    expect(Object.keys(result.metafile.inputs)).toContain('package.json');
    expect(readdirSync(outDir)).toEqual(['index.mjs']);

    const { handler } = (await import(pathToFileURL(join(outDir, 'index.mjs')).href)) as { handler: LambdaHandler };
    const event = {
      resource: '/v1/usage',
      path: '/v1/usage',
      httpMethod: 'POST',
      headers: { 'Content-Type': 'application/json' },
      multiValueHeaders: { 'Content-Type': ['application/json'] },
      body: '{}',
      isBase64Encoded: false,
      requestContext: { requestId: 'version-bundle-request' },
    } as unknown as APIGatewayProxyEvent;
    const context = { awsRequestId: 'version-bundle-request', getRemainingTimeInMillis: () => 28_000 } as unknown as Context;
    const answer: APIGatewayProxyResult = await handler(event, context);
    expect(answer.statusCode, answer.body).toBe(401);
    expect(answer.headers?.['X-Api-Version']).toBe(VERSION);
  }, 120_000);
});
