/**
 * CITATION_STYLES_AT_INIT (a setting the stack no longer gives: docs/decisions.md §26): loading the handler
 * builds the citation styles and renders one record, so that the container's first citation search only
 * renders; without it, nothing is built while the handler loads.
 * Each case loads functions/cite-search.ts in a fresh process, as a container starts, and reads its log.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TEST_CLIENT_KEY, TEST_UPSTREAM_KEY } from '../support/service.js';

const run = promisify(execFile);
const ROOT = new URL('../..', import.meta.url).pathname;

// Loads the handler, then says whether the styles were already built when loading ended.
const SCRIPT = `
  await import('./functions/cite-search.ts');
  const { citationRenderer } = await import('./lib/citations/render/render.ts');
  let built = false;
  const started = citationRenderer().then(() => { built = true; });
  await new Promise((resolve) => setImmediate(resolve));
  process.stdout.write(JSON.stringify({ builtWhenLoaded: built }) + '\\n');
  await started;
`;

async function loadHandler(atInit: string | undefined) {
  const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      API_KEYS: TEST_CLIENT_KEY,
      SERPAPI_API_KEY: TEST_UPSTREAM_KEY,
      // Never called; an upstream other than SerpApi takes the test's key (lib/config.ts).
      SERPAPI_BASE_URL: 'http://127.0.0.1:9',
      CROSSREF_BASE_URL: 'http://127.0.0.1:9',
      ...(atInit === undefined ? {} : { CITATION_STYLES_AT_INIT: atInit }),
    },
    timeout: 150_000,
  });
  // The logger writes warnings and errors to stderr, the rest to stdout.
  const lines = `${stdout}\n${stderr}`
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    builtLog: lines.find((line) => line.message === 'citation styles built'),
    builtWhenLoaded: lines.find((line) => 'builtWhenLoaded' in line)?.builtWhenLoaded,
    errors: lines.filter((line) => line.level === 'ERROR'),
    warnings: lines.filter((line) => line.level === 'WARN'),
  };
}

describe('CITATION_STYLES_AT_INIT', () => {
  // Seconds of CPU for the styles, many more on a busy machine: limits of their own, never a verdict on speed.
  it('"true": the styles are built, and a record rendered, while the handler loads', { timeout: 180_000 }, async () => {
    const loaded = await loadHandler('true');
    expect(loaded.errors).toEqual([]);
    // The rest of the pipeline (match, CSL record, index record) ran through once too, without a fault.
    expect(loaded.warnings).toEqual([]);
    expect(loaded.builtLog).toMatchObject({ level: 'INFO', ms: expect.any(Number) });
    expect(loaded.builtWhenLoaded).toBe(true);
  });

  it('unset: loading the handler builds nothing; the first citation search will', { timeout: 180_000 }, async () => {
    const loaded = await loadHandler(undefined);
    expect(loaded.errors).toEqual([]);
    expect(loaded.builtLog).toBeUndefined();
    expect(loaded.builtWhenLoaded).toBe(false);
  });
});
