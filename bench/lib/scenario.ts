/** One figure of a scenario: Oeuvre's result next to the floor measured in the same run. */
export interface Measurement {
  /** e.g. "feed requests/s" */
  name: string
  unit: string
  floor: number
  oeuvre: number
  /** oeuvre / floor for higher-is-better units; floor / oeuvre for times (always: 1.0 = as fast as the floor). */
  ratio: number
  /** The target ratio (at least). */
  target: number
  /**
   * The floor's CPU per unit of work over Oeuvre's (every process of each side: its own, the
   * database's backends, a receiver), 1.0 = as frugal as the floor. On shared cores the rates
   * move with whatever else runs; the CPU a unit of work costs moves much less.
   */
  cpuRatio?: number
  /** Anything else worth printing: p99 latency, peak RSS, counts. */
  extra?: Record<string, number | string>
  /** Pass/fail checks a drill made on the way (printed one per line; a failed one throws before a measurement is returned). */
  checks?: CheckResult[]
}

/** One named check of a drill and what was observed. */
export interface CheckResult {
  name: string
  passed: boolean
  detail: string
}

export interface ScenarioContext {
  /** A PostgreSQL server URL; each scenario creates (and drops) its own database on it. */
  databaseUrl: string
  redisUrl: string | null
  /** 1 = the full sizes; smaller for a quick smoke run (BENCH_SCALE). */
  scale: number
  log(message: string): void
}

export interface Scenario {
  name: string
  description: string
  run(context: ScenarioContext): Promise<Measurement[]>
}
