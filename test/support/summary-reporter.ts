import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one final `N passed, N failed` line after the run. CI reads this line (and the exit code),
 * not vitest's own summary, so it must count every test case, including those in failed files.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      let casesInModule = 0;
      for (const test of mod.children.allTests()) {
        casesInModule++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load has no test cases but is still a failure.
      if (casesInModule === 0 && mod.state() === 'failed') failed++;
    }
    const extra = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\n${passed} passed, ${failed} failed${extra}\n`);
  }
}
