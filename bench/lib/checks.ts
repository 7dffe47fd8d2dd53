import type { CheckResult } from './scenario.js'

/** A drill's checks: each printed as it is made; `assertAll` throws naming every failed one. */
export class Checks {
  readonly results: CheckResult[] = []

  constructor(private readonly log: (message: string) => void) {}

  check(name: string, passed: boolean, detail: string): boolean {
    this.results.push({ name, passed, detail })
    this.log(`${passed ? 'PASS' : 'FAIL'} ${name}: ${detail}`)
    return passed
  }

  assertAll(label: string): void {
    const failed = this.results.filter((result) => !result.passed)
    if (failed.length)
      throw new Error(
        `${label}: ${failed.length} check(s) failed:\n${failed.map((f) => `  ${f.name}: ${f.detail}`).join('\n')}`,
      )
  }
}
