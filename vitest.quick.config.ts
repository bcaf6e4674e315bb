/**
 * `npm run test:quick`: the unit and contract tests (test/support/quick-suite.ts says which, and why the
 * others are left out), with the full run's settings, on every core: none of these files times anything
 * against the clock, so they may share the machine.
 */
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { QUICK_EXCLUDE, QUICK_INCLUDE } from './test/support/quick-suite.js';
import { QuickSuiteReporter, SkipNotesReporter } from './test/support/reporters.js';
import full from './vitest.config.js';

export default defineConfig({
  ...full,
  test: {
    ...full.test,
    include: [...QUICK_INCLUDE],
    exclude: [...QUICK_EXCLUDE],
    maxWorkers: availableParallelism(),
    reporters: [new QuickSuiteReporter(), 'default', new SkipNotesReporter()],
  },
});
