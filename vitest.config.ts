import { defineConfig } from 'vitest/config';
import { SkipNotesReporter } from './test/support/reporters.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file runs in its own process: config is read once per process, as in a Lambda container.
    pool: 'forks',
    // The handlers read their config at import; unit tests get a local one (integration tests set their own).
    env: {
      API_KEYS: 'unit-test-client-key',
      SERPAPI_API_KEY: 'unit-test-upstream-key',
      SERPAPI_BASE_URL: 'http://127.0.0.1:9',
      // No test may reach the real Crossref or DataCite: a test that wants one starts its fake and says so.
      CROSSREF_BASE_URL: 'http://127.0.0.1:9',
      DATACITE_BASE_URL: 'http://127.0.0.1:9',
      // On Node 20 the AWS SDK warns, once per process, that its releases after early 2027 need Node 22
      // (the deployed functions run on 22). The SDK's documented switch, for the tests and the servers
      // they start; a run of the service itself keeps the warning (aws/aws-sdk-js-v3#7983).
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    setupFiles: ['test/support/capture-logs.ts'],
    // Timeouts catch a hang, never slowness: no verdict may depend on the machine's speed. A test's CPU-bound
    // work beside eight busy processes on two cores takes five times as long or more (a reference-matching
    // test of 5 s took 28 s, past the 20 s this used to be), so the default leaves room for minutes; a test
    // that waits for a hang on purpose sets its own, sized to what it waits for.
    testTimeout: 240_000,
    // Set-up hooks start services, load every handler or synthesize and bundle the whole stack (the
    // latter took over 30 s beside eight busy processes on two cores): room for four times that.
    hookTimeout: 120_000,
    // Request log lines are the service working as intended; show them only for failing tests.
    silent: 'passed-only',
    // A test skipped where this machine lacks something says why, at the end of the run.
    reporters: ['default', new SkipNotesReporter()],
  },
});
