/**
 * The functions that only read jobs (status, results, cancel) load none of the citation pipeline: the kinds
 * (lib/jobs/kinds.ts) bring citeproc, the check's readers and the resolver, ~1 MiB a new container would
 * parse before its first answer, and reading a job needs only the kinds' outcomes (lib/jobs/outcomes.ts).
 * Each function is bundled as the stack bundles it (infra/bundling.ts) and what esbuild put in is read.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { DEPLOYED_ESBUILD_OPTIONS } from '../../infra/bundling.js';

/** The inputs of the function's deployed bundle, relative to the project. */
async function bundleInputs(name: string): Promise<string[]> {
  const result = await build({
    ...DEPLOYED_ESBUILD_OPTIONS,
    entryPoints: [new URL(`../../functions/${name}.ts`, import.meta.url).pathname],
    outfile: `${name}.mjs`,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

/** What the kinds bring: themselves, the renderer and its engine, the check's readers and the resolver. */
const PIPELINE = /lib\/jobs\/kinds\.ts$|node_modules\/citeproc\/|lib\/citations\/(check|resolve|render)\//;

describe('the bundles of the functions that read jobs', () => {
  it.each(['jobs-status', 'jobs-results', 'jobs-cancel'])('%s holds none of the citation pipeline', async (name) => {
    const inputs = await bundleInputs(name);
    expect(inputs.some((path) => path.endsWith('lib/jobs/read.ts'))).toBe(true);
    expect(inputs.filter((path) => PIPELINE.test(path))).toEqual([]);
  });

  it('while the submission does (the same reading of a bundle finds the pipeline where it is)', async () => {
    const inputs = await bundleInputs('jobs-submit');
    expect(inputs.some((path) => path.endsWith('lib/jobs/kinds.ts'))).toBe(true);
    expect(inputs.some((path) => path.includes('node_modules/citeproc/'))).toBe(true);
  });
});
