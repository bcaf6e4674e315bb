/**
 * Mutation testing of the spending budget (docs/testing.md, "Mutation testing of the budget"): only
 * lib/budget is mutated, and only the budget's tests run against each mutant (stryker.vitest.config.ts).
 * Run with `npx stryker run`; it is not part of CI (minutes on two cores).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'stryker.vitest.config.ts', related: false },
  mutate: ['lib/budget/**/*.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 1,
  timeoutMS: 30_000,
  // The first run, with coverage, runs every file once: minutes on two shared cores.
  dryRunTimeoutMinutes: 30,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/budget.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // A later run retests only the mutants whose code or tests changed.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
};
