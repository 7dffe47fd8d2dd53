/**
 * Errors that mean the database could not be reached or dropped the connection, as opposed to
 * an answer it gave (a constraint, a serialization failure): the request may succeed if retried
 * once the server is back, so the API answers 503 and a pooled client that saw one is discarded.
 */

/** SQLSTATE classes and codes of a lost or refused connection. */
const LOST_SQLSTATE = /^(08...|57P0[123]|53300)$/
/** Socket errors (Node's `code`) of a server that is down, unreachable or gone. */
const LOST_SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
/** What `pg` and `pg-pool` throw themselves when a connection ends or cannot be had in time. */
const LOST_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/

export function isConnectionLoss(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  // Node reports a failed connect to every address of a name (localhost: ::1 and 127.0.0.1) as one AggregateError.
  if (error instanceof AggregateError && error.errors.some(isConnectionLoss)) return true
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown }
  if (typeof code === 'string' && (LOST_SQLSTATE.test(code) || LOST_SOCKET.has(code))) return true
  if (typeof message === 'string' && LOST_MESSAGE.test(message)) return true
  return cause !== undefined && cause !== error && isConnectionLoss(cause)
}
