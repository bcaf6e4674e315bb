/**
 * The test files StrykerJS runs against the citation matchers and exports (test/mutation/citations.stryker.json):
 * each mutated file's own tests, and nothing that starts a server. The rendered-strings set
 * (test/unit/lib/reference-rendered.test.ts) is left out: it renders 400 works before it matches, which
 * a run per mutant cannot afford; the real strings, the pastes, the numbered siblings and the datasets stay.
 */
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // Instrumented code runs several times slower: the labelled sets then take over 20 s.
    testTimeout: 180_000,
    include: [
      'test/unit/lib/crossref-match.test.ts',
      'test/unit/lib/crossref-labelled.test.ts',
      'test/unit/lib/scholar-lines.test.ts',
      'test/unit/lib/reference-match.test.ts',
      'test/unit/lib/reference-match-reading.test.ts',
      'test/unit/lib/reference-match-rules.test.ts',
      'test/unit/lib/reference-match-judge.test.ts',
      'test/unit/lib/reference-match-patterns.test.ts',
      'test/unit/lib/crossref-match-rules.test.ts',
      'test/unit/lib/reference-labelled.test.ts',
      'test/unit/lib/reference-pasted.test.ts',
      'test/unit/lib/reference-doi-links.test.ts',
      'test/unit/lib/repository-match.test.ts',
      'test/unit/lib/exports.test.ts',
      'test/unit/lib/exports-entries.test.ts',
      'test/unit/lib/crossref-roundtrip.test.ts',
    ],
  },
});
