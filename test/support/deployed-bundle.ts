/**
 * One module bundled with the functions' esbuild options (infra/bundling.ts), for this machine's Node, then
 * imported: the bundle tests compare what it does with what the unbundled code does.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { copyStylePack, DEPLOYED_ESBUILD_OPTIONS, STYLE_PACK_IN_BUNDLE } from '../../infra/bundling.js';

/** citation-js's remote fetchers, which the deployed bundles replace with a stub. */
export const REMOTE_FETCHERS = /node_modules\/(node-fetch|sync-fetch|web-streams-polyfill)\//;

/** Bundles `entry` (a path) and imports the bundle; `inputs` are the files esbuild put in it. */
export async function importDeployedBundle<Module>(entry: string): Promise<{ module: Module; inputs: string[] }> {
  const outDir = mkdtempSync(join(tmpdir(), 'deployed-bundle-'));
  try {
    const result = await build({
      entryPoints: [entry],
      ...DEPLOYED_ESBUILD_OPTIONS,
      // Run here, on this machine's Node.
      target: 'node20',
      outdir: outDir,
      outExtension: { '.js': '.mjs' },
      metafile: true,
      logLevel: 'silent',
    });
    // The style pack beside the bundle, as the deployment puts it (infra/bundling.ts).
    copyStylePack(outDir);
    const outfile = join(outDir, basename(entry).replace(/\.ts$/, '.mjs'));
    const module = (await import(pathToFileURL(outfile).href)) as Module;
    return { module, inputs: Object.keys(result.metafile.inputs) };
  } finally {
    // Only the style pack is left once the module has loaded, before a test calls into it: a bundle that
    // read another file of its own after loading would fail. The pack goes when the process ends.
    for (const name of readdirSync(outDir))
      if (name !== STYLE_PACK_IN_BUNDLE.split('/')[0]) rmSync(join(outDir, name), { recursive: true, force: true });
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
  }
}
