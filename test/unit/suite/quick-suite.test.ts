/**
 * `npm run test:quick` keeps its promises (test/support/quick-suite.ts): unit and contract tests only, no
 * browser, no TeX, no process started; every file it leaves out has its reason, and the reasons are true;
 * the run prints them; skipped tests say why at the end of a run.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_TESTS, inQuickSuite, quickSuiteSummary, testFiles, whyLeftOut } from '../../support/quick-suite.js';
import { skipNotes } from '../../support/reporters.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const files = testFiles(ROOT);
const quick = files.filter(inQuickSuite);

/** What a test file does, with the test/support modules it imports (their own imports followed). */
function sourceWithSupport(path: string, seen = new Set<string>()): string {
  if (seen.has(path)) return '';
  seen.add(path);
  const text = readFileSync(join(ROOT, path), 'utf8');
  const imported = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)]
    .map((match) => normalize(join(dirname(path), (match[1] ?? '').replace(/\.js$/, '.ts'))))
    .filter((target) => target.startsWith('test/support/'));
  return [text, ...imported.map((target) => sourceWithSupport(target, seen))].join('\n');
}

const STARTS_PROCESSES = /from 'node:child_process'|support\/(child-process|service-process)\.js'/;
const NEEDS_BROWSER = /launchChromium\(/;
const NEEDS_TEX = /\b(?:found|run|spawnSync|spawn|execFile)\(\s*'(?:latex|biber|bibtex|kpsewhich)'/;
/** This file names those patterns without doing any of it. */
const SELF = 'test/unit/suite/quick-suite.test.ts';

describe('npm run test:quick', () => {
  it('is the script the testing guide documents, with its own configuration', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['test:quick']).toBe('vitest run --config vitest.quick.config.ts');
    expect(readFileSync(join(ROOT, 'docs/testing.md'), 'utf8')).toContain('npm run test:quick');
  });

  it('runs the unit tests and the contract tests, and each contract test exists', () => {
    expect(quick.filter((path) => !path.startsWith('test/unit/') && !CONTRACT_TESTS.includes(path))).toEqual([]);
    expect(CONTRACT_TESTS.filter((path) => !files.includes(path))).toEqual([]);
    expect(quick.length).toBeGreaterThan(40);
  });

  it('starts no process, no browser and no TeX', () => {
    const offending = quick
      .filter((path) => path !== SELF)
      .filter((path) => {
        const source = sourceWithSupport(path);
        return STARTS_PROCESSES.test(source) || NEEDS_BROWSER.test(source) || NEEDS_TEX.test(source);
      });
    expect(offending).toEqual([]);
  });

  it('says why it leaves each other file out, and the reasons that can be checked are true', () => {
    for (const path of files.filter((file) => !inQuickSuite(file))) {
      const why = whyLeftOut(path) ?? '';
      expect(why, path).not.toBe('');
      const source = sourceWithSupport(path);
      if (why.startsWith('starts processes')) expect(source, path).toMatch(STARTS_PROCESSES);
      if (why.startsWith('needs TeX')) expect(source, path).toMatch(NEEDS_TEX);
      if (why.startsWith('needs a browser')) expect(source, path).toMatch(NEEDS_BROWSER);
    }
    // A file that starts processes says so (TeX and a browser are processes too), never only "over HTTP".
    const unnamed = files.filter(
      (path) =>
        !inQuickSuite(path) &&
        STARTS_PROCESSES.test(sourceWithSupport(path)) &&
        !/^(starts processes|needs TeX|needs a browser)/.test(whyLeftOut(path) ?? ''),
    );
    expect(unnamed).toEqual([]);
  });

  it('prints what it leaves out before it starts, every file counted once', () => {
    const summary = quickSuiteSummary(files);
    expect(summary).toContain(`test:quick runs ${quick.length} of ${files.length} test files`);
    const counted = [...summary.matchAll(/^ +(\d+) {2}/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
    expect(counted).toBe(files.length - quick.length);
    expect(summary).toContain('needs TeX');
    expect(summary).toContain('needs a browser');
  });
});

describe('the note of a skipped test', () => {
  it('is printed with the test, and a skip without one says so', () => {
    expect(
      skipNotes([
        {
          file: 'test/a.test.ts',
          tests: [
            { name: 'ran', state: 'passed' },
            { name: 'needs TeX', state: 'skipped', note: 'no TeX here' },
            { name: 'bare', state: 'skipped' },
          ],
        },
      ]),
    ).toEqual([
      'Skipped (2), and why:',
      '  ↓ test/a.test.ts > needs TeX: no TeX here',
      '  ↓ test/a.test.ts > bare: skipped, giving no reason',
    ]);
    expect(skipNotes([{ file: 'test/a.test.ts', tests: [{ name: 'ran', state: 'passed' }] }])).toEqual([]);
  });
});
