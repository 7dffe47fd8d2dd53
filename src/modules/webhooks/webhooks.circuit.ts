import { HOUR, SECOND } from '../../platform/clock.js'

/**
 * An endpoint's circuit breaker. Closed, its deliveries are claimed as usual. After
 * `threshold` consecutive failed attempts it opens: none of its deliveries is claimed until
 * `openUntil`. Then it is half open: one delivery at a time is claimed as a probe. A failed
 * probe opens it again for twice as long as the last time (up to `maxOpenMs`); any success
 * closes it. The state lives in webhook_circuits, so every worker sees it; the claim
 * (claim_webhook_deliveries, migration 0013) applies it.
 */
export interface CircuitRules {
  /** Consecutive failed attempts that open a closed circuit. */
  threshold: number
  /** How long the first opening lasts; each reopening after a failed probe doubles it. */
  openMs: number
  maxOpenMs: number
}

/** Longer than an attempt's timeout, so attempts under way when it opens have ended before the probe. */
export const DEFAULT_CIRCUIT_RULES: CircuitRules = { threshold: 5, openMs: 30 * SECOND, maxOpenMs: HOUR }

export interface CircuitState {
  /** Consecutive failed attempts. */
  failures: number
  /** Openings in a row (the next one lasts openMs * 2^opened). */
  opened: number
  /** Skipped until then; null while closed. */
  openUntil: Date | null
}

export const CLOSED: CircuitState = { failures: 0, opened: 0, openUntil: null }

export type CircuitPhase = 'closed' | 'open' | 'half-open'

export function circuitPhase(state: CircuitState, now: Date): CircuitPhase {
  if (state.openUntil === null) return 'closed'
  return state.openUntil.getTime() > now.getTime() ? 'open' : 'half-open'
}

function openFor(opened: number, rules: CircuitRules): number {
  return Math.min(rules.openMs * 2 ** Math.min(opened, 30), rules.maxOpenMs)
}

/**
 * The state after one attempt recorded at `now`. A failure while open is an attempt that
 * started before the opening: counted, the opening unchanged.
 */
export function circuitAfter(
  state: CircuitState,
  outcome: 'success' | 'failure',
  now: Date,
  rules: CircuitRules,
): CircuitState {
  if (outcome === 'success') return CLOSED
  const failures = state.failures + 1
  const phase = circuitPhase(state, now)
  if (phase === 'open') return { ...state, failures }
  if (phase === 'closed' && failures < rules.threshold) return { ...state, failures }
  // Closed at the threshold, or a failed probe: (re)open, each time for twice as long.
  return { failures, opened: state.opened + 1, openUntil: new Date(now.getTime() + openFor(state.opened, rules)) }
}
