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
  // Many of the budget's tests wait on real time (a counter that does not answer is given up after its
  // timeout): a runner uses about a third of a core, so four at once fit two cores.
  concurrency: 4,
  // Module-level constants: each would rerun every test (docs/testing.md, "Mutation testing").
  ignoreStatic: true,
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
