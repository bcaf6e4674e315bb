/**
 * Reporters the test configurations add beside vitest's own. A test skipped where this machine lacks
 * something (a browser, TeX) says why with `ctx.skip(condition, note)`, and `SkipNotesReporter` prints
 * every skipped test with its note at the end of the run, where the default reporter shows only counts.
 * `QuickSuiteReporter` prints, before `npm run test:quick` starts, what it leaves out and why.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { quickSuiteSummary, testFiles } from './quick-suite.js';

export interface ReportedFile {
  file: string;
  tests: readonly { name: string; state: string; note?: string | undefined }[];
}

/** One line per skipped test, with the reason it gave; nothing when none was skipped. */
export function skipNotes(files: readonly ReportedFile[]): string[] {
  const lines = files.flatMap(({ file, tests }) =>
    tests
      .filter((test) => test.state === 'skipped')
      .map((test) => `  ↓ ${file} > ${test.name}: ${test.note ?? 'skipped, giving no reason'}`),
  );
  return lines.length === 0 ? [] : [`Skipped (${lines.length}), and why:`, ...lines];
}

export class SkipNotesReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const root = this.vitest?.config.root ?? process.cwd();
    const files = modules.map((module) => ({
      file: relative(root, module.moduleId),
      tests: [...module.children.allTests()].map((test) => {
        const result = test.result();
        return { name: test.fullName, state: result.state, note: result.state === 'skipped' ? result.note : undefined };
      }),
    }));
    const lines = skipNotes(files);
    if (lines.length > 0) this.vitest?.logger.log(`\n${lines.join('\n')}`);
  }
}

export class QuickSuiteReporter implements Reporter {
  onInit(vitest: Vitest): void {
    vitest.logger.log(quickSuiteSummary(testFiles(vitest.config.root)));
  }
}
