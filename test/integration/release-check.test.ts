/**
 * `npm run release:check` (lib/release/check.ts) on a git repository of its own, with real git and npm:
 * a history like this project's after 1.0.0 (the release never tagged; then the budget's behaviour changed
 * with no version, no entry and no tag) is refused, rule by rule; the release the guide describes
 * (docs/deploy-and-operations.md, "Releasing a version": bump, date, tag) passes. The guide's steps are
 * the commands run here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const CHECK = join(ROOT, 'lib/release/check.ts');
const GUIDE = readFileSync(join(ROOT, 'docs/deploy-and-operations.md'), 'utf8');

let repo: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Release Test', '-c', 'user.email=release@example.com', ...args], {
    cwd: repo,
    encoding: 'utf8',
  }).trim();
const write = (file: string, text: string) => writeFileSync(join(repo, file), text);
const json = (file: string) => JSON.parse(readFileSync(join(repo, file), 'utf8'));
const today = () => new Date().toISOString().slice(0, 10);
// Each `npm run release:check` starts npm and tsx: seconds on a quiet machine, many more beside busy ones.
// The timeouts catch a hang, sized far above what the runs take.
const RUNS = { timeout: 240_000 };

/** `npm run release:check` in the repository: its exit status and output. */
function releaseCheck(): { status: number | null; out: string } {
  const run = spawnSync('npm', ['run', '--silent', 'release:check'], { cwd: repo, encoding: 'utf8' });
  return { status: run.status, out: `${run.stdout}${run.stderr}`.trim() };
}

const changelog = (entries: string) => `# Changelog\n\nEvery release, newest first.\n\n${entries}`;

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'release-check-'));
  git('init', '-q', '-b', 'main');
  write(
    'package.json',
    `${JSON.stringify({ name: 'release-check-test', version: '1.0.0', private: true, scripts: { 'release:check': `${TSX} ${CHECK}` } }, null, 2)}\n`,
  );
  write('openapi.json', `${JSON.stringify({ openapi: '3.1.0', info: { title: 'API', version: '1.0.0' } }, null, 2)}\n`);
  write('CHANGELOG.md', changelog('## [1.0.0] — 2026-11-26\n\n- The first release.\n'));
  execFileSync('mkdir', ['-p', join(repo, 'lib/budget')]);
  write('lib/budget/budget.ts', 'export const LONGEST_WINDOW_NAMED = false;\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'Release 1.0.0');
}, 120_000);
afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

describe('a history like this project’s after 1.0.0', () => {
  it('refuses a release that was never tagged', RUNS, () => {
    const { status, out } = releaseCheck();
    expect(status, out).toBe(1);
    expect(out).toContain('error tagged: no tag v1.0.0');
  });

  it('refuses a change to what ships after the release’s tag, with no version and no entry', RUNS, () => {
    git('tag', '-a', 'v1.0.0', '-m', 'Release 1.0.0');
    expect(releaseCheck()).toEqual({ status: 0, out: 'release check: every rule holds' });
    write('lib/budget/budget.ts', 'export const LONGEST_WINDOW_NAMED = true;\n');
    git('commit', '-q', '-am', 'Budget: of the windows resetting together, the longest is named');
    const { status, out } = releaseCheck();
    expect(status, out).toBe(1);
    expect(out).toMatch(/^error unreleased-changes: what the service ships changed since v1\.0\.0 \(lib\/budget\/budget\.ts\)/);
  });

  it('lets the change wait, said, once listed under Unreleased', RUNS, () => {
    write(
      'CHANGELOG.md',
      changelog('## [Unreleased]\n\n- The budget names the longest window.\n\n## [1.0.0] — 2026-11-26\n\n- The first release.\n'),
    );
    git('commit', '-q', '-am', 'CHANGELOG: the budget change, unreleased');
    const { status, out } = releaseCheck();
    expect(status, out).toBe(0);
    expect(out).toMatch(/^note unreleased-changes: changes since v1\.0\.0 \(lib\/budget\/budget\.ts\) wait/);
  });
});

describe('the release the guide describes', () => {
  it('lists the steps this test runs', () => {
    const section = GUIDE.slice(GUIDE.indexOf('## Releasing a version'));
    for (const step of [
      '`npm version <version> --no-git-tag-version`',
      '`## [<version>] — <date>`',
      '`npm run openapi`',
      '`git tag -a v<version> -m "Release <version>"`',
      '`npm run release:check`',
    ]) {
      expect(section).toContain(step);
    }
  });

  it('bumps, dates and tags 1.1.0, and the check then finds nothing', RUNS, () => {
    // Step 2: npm's own bump, offline.
    execFileSync('npm', ['version', '1.1.0', '--no-git-tag-version'], { cwd: repo, encoding: 'utf8' });
    expect(json('package.json').version).toBe('1.1.0');
    // Step 3: Unreleased becomes the release, dated today.
    write('CHANGELOG.md', readFileSync(join(repo, 'CHANGELOG.md'), 'utf8').replace('## [Unreleased]', `## [1.1.0] — ${today()}`));
    // Before step 4 the document still says 1.0.0, and the release is not tagged.
    git('commit', '-q', '-am', 'Release 1.1.0 (openapi.json not regenerated)');
    const early = releaseCheck();
    expect(early.status).toBe(1);
    expect(early.out.split('\n').map((line) => line.split(':')[0])).toEqual(['error openapi-version', 'error tagged']);
    // Step 4 (npm run openapi writes info.version from package.json; its own test holds the file to it).
    write('openapi.json', `${JSON.stringify({ ...json('openapi.json'), info: { title: 'API', version: '1.1.0' } }, null, 2)}\n`);
    git('commit', '-q', '-am', 'Release 1.1.0: the budget names the longest window');
    // Step 5: the tag; step 6: the check.
    git('tag', '-a', 'v1.1.0', '-m', 'Release 1.1.0');
    expect(releaseCheck()).toEqual({ status: 0, out: 'release check: every rule holds' });
  });
});
