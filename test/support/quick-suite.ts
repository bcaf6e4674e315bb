/**
 * `npm run test:quick` (vitest.quick.config.ts): the unit tests and the contract tests, for the edit-test
 * loop. No browser, no TeX, no server in a process of its own. Every test file it leaves out is left out
 * for a reason said here, which the run prints at its start; `npm test` runs them all.
 * test/unit/quick-suite.test.ts holds the quick set to those promises.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The contract tests: the service held to its document, its field tables, its cost table and the upstream's parameters. */
export const CONTRACT_TESTS: readonly string[] = [
  'test/integration/contract.test.ts',
  'test/integration/upstream-params.test.ts',
  'test/integration/spec-fields.test.ts',
  'test/integration/paid-calls.test.ts',
  'test/integration/generated-client.test.ts',
  'test/integration/api-version.test.ts',
];

/** Files under test/unit/ that need more than Node: left out too. */
const TEX_TESTS: readonly string[] = ['test/unit/lib/exports-tex.test.ts'];

/** Why a file is left out of the quick run, by the first rule it meets; the order is the order printed. */
const LEFT_OUT_RULES: readonly { why: string; matches: (path: string) => boolean }[] = [
  { why: 'needs TeX (LaTeX, BibTeX, biber)', matches: (path) => TEX_TESTS.includes(path) },
  { why: 'needs a browser (Chromium)', matches: (path) => path === 'test/integration/docs.test.ts' },
  {
    why: 'starts processes of its own (npm start, the CDK, a service in a child process)',
    matches: (path) =>
      [
        'test/integration/docs-commands.test.ts',
        'test/integration/start-banner.test.ts',
        'test/integration/demo-recording.test.ts',
        'test/integration/demo-recording-off.test.ts',
        'test/integration/secrets.test.ts',
        'test/integration/smoke.test.ts',
        'test/integration/citation-styles-at-init.test.ts',
        'test/integration/budget-shared.test.ts',
        'test/integration/budget-slow.test.ts',
        'test/integration/cite-search-exports-shared.test.ts',
        'test/integration/shared-cache.test.ts',
        'test/infra/create-client-key.test.ts',
        'test/infra/iam-matches-code.test.ts',
        'test/integration/budget-one-call.test.ts',
        'test/integration/cache-claims.test.ts',
        'test/integration/release-check.test.ts',
        'test/integration/pace-shared.test.ts',
      ].includes(path),
  },
  {
    why: 'the hardening suite: load, faults and generated inputs, minutes',
    matches: (path) => path.startsWith('test/hardening/'),
  },
  { why: 'synthesizes the stack or bundles functions with esbuild', matches: (path) => path.startsWith('test/infra/') },
  {
    why: 'a behaviour of the service over HTTP against the fakes (the contract tests stay in)',
    matches: (path) => path.startsWith('test/integration/'),
  },
];

/** Every test file of the project, from its root, sorted. */
export function testFiles(root: string): string[] {
  return (readdirSync(join(root, 'test'), { recursive: true }) as string[])
    .filter((path) => path.endsWith('.test.ts'))
    .map((path) => `test/${path.split('\\').join('/')}`)
    .sort();
}

/** Whether `npm run test:quick` runs a test file. */
export function inQuickSuite(path: string): boolean {
  if (CONTRACT_TESTS.includes(path)) return true;
  return path.startsWith('test/unit/') && !TEX_TESTS.includes(path);
}

/** Why the quick run leaves a file out, or undefined when it runs it. */
export function whyLeftOut(path: string): string | undefined {
  if (inQuickSuite(path)) return undefined;
  return LEFT_OUT_RULES.find((rule) => rule.matches(path))?.why ?? 'not a unit or contract test';
}

/** The vitest `include` and `exclude` of the quick run. */
export const QUICK_INCLUDE: readonly string[] = ['test/unit/**/*.test.ts', ...CONTRACT_TESTS];
export const QUICK_EXCLUDE: readonly string[] = TEX_TESTS;

/** What the quick run prints before it starts: how many files it runs, and what it leaves out and why. */
export function quickSuiteSummary(files: readonly string[]): string {
  const quick = files.filter(inQuickSuite);
  // In the order of the rules: what needs more than Node first.
  const groups = new Map<string, string[]>(LEFT_OUT_RULES.map((rule) => [rule.why, []]));
  for (const path of files) {
    const why = whyLeftOut(path);
    if (why) groups.set(why, [...(groups.get(why) ?? []), path]);
  }
  for (const [why, paths] of groups) if (paths.length === 0) groups.delete(why);
  const lines = [
    `test:quick runs ${quick.length} of ${files.length} test files (unit and contract tests); npm test runs them all. Left out:`,
    ...[...groups].map(([why, paths]) => {
      const names = paths.length <= 3 ? paths.join(', ') : `${paths.slice(0, 2).join(', ')} and ${paths.length - 2} more`;
      return `  ${String(paths.length).padStart(3)}  ${why}: ${names}`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
