/**
 * One module bundled with the functions' esbuild options (infra/bundling.ts), for this machine's Node, then
 * imported: the bundle tests compare what it does with what the unbundled code does. The CSL style pack is
 * laid out as its Lambda layer lays it out (infra/style-pack-layer.ts), under a folder standing for /opt, and
 * the bundle is told where with STYLE_PACK_DIR, as the stack tells the functions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { DEPLOYED_ESBUILD_OPTIONS, stylePackDir, writeStylePackLayer } from '../../infra/bundling.js';

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
    // The style pack where the layer puts it, under a folder standing for /opt; the bundle reads its config
    // (STYLE_PACK_DIR) once, as it loads.
    const opt = mkdtempSync(join(tmpdir(), 'deployed-bundle-opt-'));
    writeStylePackLayer(opt);
    process.once('exit', () => rmSync(opt, { recursive: true, force: true }));
    const outfile = join(outDir, basename(entry).replace(/\.ts$/, '.mjs'));
    const before = process.env.STYLE_PACK_DIR;
    process.env.STYLE_PACK_DIR = stylePackDir(opt);
    try {
      const module = (await import(pathToFileURL(outfile).href)) as Module;
      return { module, inputs: Object.keys(result.metafile.inputs) };
    } finally {
      if (before === undefined) delete process.env.STYLE_PACK_DIR;
      else process.env.STYLE_PACK_DIR = before;
    }
  } finally {
    // Nothing of the bundle's folder is left once the module has loaded, before a test calls into it: a
    // bundle that read a file of its own after loading (the style pack beside it, as it once was) would fail.
    rmSync(outDir, { recursive: true, force: true });
  }
}
