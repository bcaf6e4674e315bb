/**
 * `npm run release:check`: the release rules (lib/release/rules.ts) on this repository as checked out:
 * package.json, CHANGELOG.md and openapi.json, and git's tags and history. Prints each finding and exits 1
 * when any is an error. Run it on a release's commit once tagged, or on any later one to see what waits to
 * be released (docs/deploy-and-operations.md, "Releasing a version").
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRelease, type Finding, type ReleaseFacts, readChangelog, SHIPPED } from './rules.js';

function git(dir: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The facts of the repository at `dir`, as the rules read them; `today` as YYYY-MM-DD (UTC). */
export function releaseFacts(dir: string, today = new Date().toISOString().slice(0, 10)): ReleaseFacts {
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  const version = (JSON.parse(read('package.json')) as { version: string }).version;
  const openapi = JSON.parse(read('openapi.json')) as { info?: { version?: string } };
  const tagCommit = git(dir, ['rev-parse', '--verify', '--quiet', `refs/tags/v${version}^{commit}`]) || undefined;
  const changed = tagCommit ? (git(dir, ['diff', '--name-only', tagCommit, 'HEAD', '--', ...SHIPPED]) ?? '') : '';
  return {
    version,
    changelog: readChangelog(read('CHANGELOG.md')),
    openapiVersion: openapi.info?.version ?? '',
    today,
    tagCommit,
    changedSinceTag: changed.split('\n').filter(Boolean),
  };
}

/** The findings as printed: one line each, errors first. */
export function report(findings: readonly Finding[]): string {
  if (findings.length === 0) return 'release check: every rule holds';
  const ordered = [...findings].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return ordered.map((finding) => `${finding.severity} ${finding.rule}: ${finding.says}`).join('\n');
}

/** Checks the repository at `dir`; 1 when any finding is an error. */
export function main(dir: string, out: (line: string) => void = console.log): number {
  const findings = checkRelease(releaseFacts(dir));
  out(report(findings));
  return findings.some((finding) => finding.severity === 'error') ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.cwd());
}
