import type { Reporter, TestModule } from 'vitest/node';

/** The real-server suite never passes without running: no tests, or any skipped or todo test, fails the run. */
export default class StrictReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const tests = testModules.flatMap((module) => [...module.children.allTests()]);
    const notRun = tests.filter((test) => test.result().state === 'skipped' || test.result().state === 'pending');
    if (tests.length === 0 || notRun.length > 0) {
      process.stdout.write(
        `\nreal-comfyui: ${tests.length === 0 ? 'no test ran' : `${notRun.length} test(s) did not run: ${notRun.map((t) => t.fullName).join('; ')}`}\n`,
      );
      process.exitCode = 1;
    }
  }
}
