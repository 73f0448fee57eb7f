import type { Reporter, TestModule } from "vitest/node";

/** Ends the run with one plain line, "tests: N passed, N failed, N skipped", that CI logs can be read by. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else counts.skipped++;
      }
      if (module.state() === "failed" && module.children.size === 0) counts.failed++;
    }
    console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
