'use strict';
/**
 * Prints the slowest test files after a run (wall time per file, as jest measured it), so a CI
 * log says where the suite's time goes. Registered in jest.config.js beside the default reporter.
 */
class SlowestSuitesReporter {
  constructor(_globalConfig, options = {}) {
    this.count = options.count ?? 15;
  }

  onRunComplete(_contexts, results) {
    const root = process.cwd() + '/';
    const suites = results.testResults
      .map((r) => ({ file: r.testFilePath.replace(root, ''), seconds: (r.perfStats.end - r.perfStats.start) / 1000 }))
      .filter((s) => Number.isFinite(s.seconds))
      .sort((a, b) => b.seconds - a.seconds);
    if (suites.length < 2) return;
    const total = suites.reduce((sum, s) => sum + s.seconds, 0);
    const lines = suites.slice(0, this.count).map((s) => `${s.seconds.toFixed(1).padStart(7)} s  ${s.file}`);
    process.stderr.write(`\nSlowest test files (of ${suites.length}, ${total.toFixed(0)} s in all, summed over workers):\n${lines.join('\n')}\n`);
  }
}
module.exports = SlowestSuitesReporter;
