/**
 * The tests StrykerJS runs against each mutant of lib/budget (stryker.config.mjs): the budget's own, unit
 * and in-process on dynalite (the counter's fault paths included), and the request-level ones that run the
 * service in the test's process. Everything else of the suite cannot tell a mutant of the budget apart.
 * The other settings are vitest.config.ts's (not merged: vitest would add its `include` to this one).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  test: {
    ...base.test,
    include: [
      'test/unit/lib/budget.test.ts',
      'test/unit/lib/budget-rules.test.ts',
      'test/unit/lib/budget-claims.test.ts',
      'test/integration/budget-counter.test.ts',
      'test/integration/budget-counter-races.test.ts',
      'test/integration/budget.test.ts',
      'test/integration/budget-billing.test.ts',
      'test/integration/budget-outage.test.ts',
      'test/integration/budget-plans.test.ts',
      'test/integration/budget-shares.test.ts',
      'test/integration/budget-in-flight.test.ts',
    ],
  },
});
