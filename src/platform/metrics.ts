import type { FastifyInstance } from 'fastify'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { RateLimiter, RateLimitStatus } from './rate-limit.js'

/** Where a limiter's buckets are; one without a status keeps them in this process. */
export function rateLimitStatus(limiter: RateLimiter): RateLimitStatus {
  return limiter.status?.() ?? { backend: 'local', reason: null }
}

/** Rows a buffer of this process dropped, by reason (the request log's). */
export interface DropCounts {
  dropped(): Record<string, number>
}

/** Prometheus metrics for one app instance (its own registry, so tests can build many). */
/** Emails sent, retried and given up since start, by kind (the email worker's). */
export interface EmailOutcomeCounts {
  list(): { kind: string; outcome: string; count: number }[]
}

export function registerMetrics(
  app: FastifyInstance,
  limiter: RateLimiter,
  requestLog?: DropCounts,
  emails?: EmailOutcomeCounts,
): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'oeuvre_' })
  new Gauge({
    name: 'oeuvre_rate_limit_backend',
    help: 'Where rate-limit buckets are: 1 for the backend in use (redis: shared by every node; local: this node only)',
    labelNames: ['backend'] as const,
    registers: [registry],
    collect() {
      const { backend } = rateLimitStatus(limiter)
      this.set({ backend: 'redis' }, backend === 'redis' ? 1 : 0)
      this.set({ backend: 'local' }, backend === 'local' ? 1 : 0)
    },
  })
  if (requestLog) {
    new Counter({
      name: 'oeuvre_request_log_dropped_total',
      help: 'Request log rows dropped: buffer_full (the oldest, when writes lag) or write_failed (a batch the database refused)',
      labelNames: ['reason'] as const,
      registers: [registry],
      collect() {
        this.reset()
        for (const [reason, count] of Object.entries(requestLog.dropped())) this.inc({ reason }, count)
      },
    })
  }
  if (emails) {
    new Counter({
      name: 'oeuvre_emails_total',
      help: 'Emails by kind and outcome: sent, retried (a temporary refusal, tried again later) or failed (given up)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
      collect() {
        this.reset()
        for (const { kind, outcome, count } of emails.list()) this.inc({ kind, outcome }, count)
      },
    })
  }
  const requests = new Counter({
    name: 'oeuvre_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'oeuvre_http_request_duration_seconds',
    help: 'HTTP request duration by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  })
  // A callback hook: nothing to await, so no promise per response.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched'
    requests.inc({ method: request.method, route, status: String(reply.statusCode) })
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000)
    done()
  })
  return registry
}
