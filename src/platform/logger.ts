import { pino, type DestinationStream, type Logger } from 'pino'
import type { Config } from '../config.js'

/** What no log line may carry. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.client_secret',
  '*.signingSecret',
]

/**
 * The log of what a process does outside requests (rate-limit backend, worker, crashes): pino, as
 * the request log, at the same level; to a file descriptor (stdout, beside the request log's lines,
 * or stderr for the CLI, whose stdout is its answer) or a stream (tests).
 */
export function createLogger(config: Pick<Config, 'logLevel'>, to: DestinationStream | 1 | 2 = 1): Logger {
  // Synchronous writes: a line logged just before the process exits is not lost.
  return pino(
    { level: config.logLevel, redact: LOG_REDACT },
    typeof to === 'number' ? pino.destination({ fd: to, sync: true }) : to,
  )
}
