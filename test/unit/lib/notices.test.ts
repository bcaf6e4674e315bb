/**
 * The third-party notice (lib/notices/): regenerated from the installed production dependencies, it must
 * equal the committed THIRD-PARTY-NOTICES.md; every package's licence must be an accepted one (or a
 * listed exception); the check takes the list of packages, so a package under a licence nobody accepted
 * is shown to fail it; and what the notice says of the data must be what their SOURCES.md files say.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptedChoice, licenceProblems } from '../../../lib/notices/licences.js';
import { type InstalledPackage, productionPackages } from '../../../lib/notices/packages.js';
import { DATA_SETS, NOTICES_FILE, renderNotices } from '../../../lib/notices/render.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const packages = productionPackages(ROOT);

/** A package as the closure reads one, under the licence given. */
const fake = (name: string, licence: string): InstalledPackage => ({
  name,
  version: '1.0.0',
  licence,
  copyright: ['Copyright (c) 2026 Someone'],
  path: `node_modules/${name}`,
});

describe('the production dependencies', () => {
  it('are the lock file’s production packages, as installed', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean; version?: string }> };
    const locked = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && !entry.dev)
      .map(([path, entry]) => `${path}@${entry.version}`)
      .sort();
    expect(packages.map((pkg) => `${pkg.path}@${pkg.version}`).sort()).toEqual(locked);
    expect(packages.map((pkg) => pkg.name)).toContain('citeproc');
  });

  it('are each under an accepted licence, or a listed exception', () => {
    expect(licenceProblems(packages)).toEqual([]);
  });

  it('fail the check when one comes under a licence nobody accepted, naming it', () => {
    const problems = licenceProblems([...packages, fake('left-pad-enterprise', 'SSPL-1.0')]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^left-pad-enterprise@1\.0\.0: SSPL-1\.0 is not an accepted licence/);
  });

  it('read SPDX expressions: any accepted alternative of an OR, every part of an AND, no WITH, no blank', () => {
    expect(acceptedChoice('(MIT OR Apache-2.0)')).toEqual(['MIT']);
    expect(acceptedChoice('GPL-3.0-only OR ISC')).toEqual(['ISC']);
    expect(acceptedChoice('MIT AND (BSD-3-Clause OR GPL-2.0)')).toEqual(['MIT', 'BSD-3-Clause']);
    expect(acceptedChoice('MIT AND GPL-2.0')).toBeNull();
    expect(acceptedChoice('Apache-2.0 WITH LLVM-exception')).toBeNull();
    expect(acceptedChoice('SEE LICENSE IN LICENSE.md')).toBeNull();
    expect(acceptedChoice('')).toBeNull();
  });

  it('accept citeproc’s CPAL-or-AGPL only for citeproc itself, and only under those terms', () => {
    expect(licenceProblems([fake('citeproc', 'CPAL-1.0 OR AGPL-1.0')])).toEqual([]);
    expect(licenceProblems([fake('another-renderer', 'CPAL-1.0 OR AGPL-1.0')])).toHaveLength(1);
    expect(licenceProblems([fake('citeproc', 'AGPL-3.0-only')])).toHaveLength(1);
  });
});

describe(NOTICES_FILE, () => {
  it('is what `npm run notices` writes from the installed packages (run it after adding a dependency)', () => {
    expect(read(NOTICES_FILE) === renderNotices(packages), `${NOTICES_FILE} is stale: run npm run notices`).toBe(true);
  });

  it('lists every package with its licence and copyright, and the text of every licence it lists', () => {
    const notice = read(NOTICES_FILE);
    for (const pkg of packages) expect(notice).toContain(`| \`${pkg.name}\` | ${pkg.version} |`);
    for (const id of new Set(packages.flatMap((pkg) => acceptedChoice(pkg.licence) ?? []))) {
      expect(notice).toMatch(new RegExp(`^### ${id.replace(/[.-]/g, '\\$&')}: `, 'm'));
    }
    expect(notice).toContain('END OF TERMS AND CONDITIONS');
    expect(notice).toContain('Copyright (c) 2009-2019 Frank Bennett');
  });

  it('says what citeproc’s terms mean for a deployment', () => {
    const notice = read(NOTICES_FILE);
    expect(notice).toContain('## citeproc: CPAL-1.0 or AGPL, and what that means for you');
    expect(notice).toMatch(/cite-search, cite-resolve, cite-check and mcp/);
  });

  it('describes each data set as its SOURCES.md does, and the files it names exist', () => {
    const licenceWords: Record<string, RegExp> = {
      'lib/citations/render/styles/SOURCES.md': /Attribution-ShareAlike 3\.0/,
      'lib/upstream/serpapi-params/SOURCES.md': /MIT, Copyright \(c\) 2025 SerpApi/,
      'lib/local/samples/SOURCES.md': /No licence file in repo/,
      'lib/local/samples/crossref/SOURCES.md': /MIT/,
      'test/fixtures/SOURCES.md': /AGPL-3\.0[\s\S]*BSD-2-Clause Plus Patent|BSD-2-Clause Plus Patent[\s\S]*AGPL-3\.0/,
    };
    const named = DATA_SETS.map((set) => /\]\(([^)]+)\)/.exec(set.sources)?.[1] ?? '');
    expect([...new Set(named)].sort()).toEqual(Object.keys(licenceWords).sort());
    for (const [path, words] of Object.entries(licenceWords)) expect(read(path), path).toMatch(words);
  });
});

describe('the recorded data’s provenance, kept beside it', () => {
  /** The folders of data copied from elsewhere; each file must be named (or its stem) in the nearest SOURCES.md. */
  const FOLDERS = ['lib/local/samples', 'test/fixtures', 'lib/upstream/serpapi-params', 'lib/citations/render/styles'];
  /** Code, and the style pack, which SOURCES.md describes as a whole (its parts and catalogue by pattern). */
  const notData = (path: string) =>
    /\.ts$/.test(path) || path.startsWith('lib/citations/render/styles/pack/') || path.endsWith('/SOURCES.md');

  const nearestSources = (path: string): string => {
    for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) {
      if (existsSync(join(ROOT, dir, 'SOURCES.md'))) return join(dir, 'SOURCES.md');
    }
    throw new Error(`no SOURCES.md above ${path}`);
  };

  it('names every data file in the SOURCES.md of its folder (or the folder above)', () => {
    const files = FOLDERS.flatMap((folder) =>
      (readdirSync(join(ROOT, folder), { recursive: true }) as string[])
        .map((path) => join(folder, path))
        .filter((path) => statSync(join(ROOT, path)).isFile()),
    ).filter((path) => !notData(path));
    expect(files.length).toBeGreaterThan(30);
    const unnamed = files.filter((path) => {
      const sources = read(nearestSources(path));
      const name = basename(path);
      return !sources.includes(name) && !sources.includes(name.replace(/\.[^.]+$/, ''));
    });
    expect(unnamed).toEqual([]);
  });
});
