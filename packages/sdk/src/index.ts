export { Oeuvre, DEFAULT_MAX_RETRIES, DEFAULT_MAX_RATE_LIMIT_WAIT_MS, DEFAULT_TIMEOUT_MS } from './client.js'
export type { OeuvreOptions, EventsWithPolling, RawRequest } from './client.js'
export { REFRESH_MARGIN_MS } from './auth.js'
export type { StoredToken, TokenStore } from './auth.js'
export { systemClock } from './clock.js'
export type { Clock } from './clock.js'
export { regionOf } from './region.js'
export type { Region } from './region.js'
export {
  OeuvreError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  ValidationError,
  ConflictError,
  RateLimitError,
  WrongRegionError,
  ServerError,
  ConnectionError,
  TimeoutError,
  WebhookVerificationError,
} from './errors.js'
export type { Problem, OeuvreErrorInit } from './errors.js'
export { Page, PagePromise } from './pagination.js'
export type { ListEnvelope } from './pagination.js'
export { DEFAULT_POLL_INTERVAL_MS } from './poll.js'
export type { PollOptions } from './poll.js'
export { DEFAULT_MAX_STREAM_BACKOFF_MS } from './stream.js'
export type { StreamOptions } from './stream.js'
export { MAX_RETRY_AFTER_SECONDS } from './transport.js'
export type { BodyOf, ListItemOf, OperationId, QueryOf, RequestOptions, ResultOf } from './types.js'
export { verifyWebhook, DEFAULT_TOLERANCE_SECONDS } from './webhooks.js'
export type { VerifyWebhookOptions, WebhookEvent, WebhookHeaders } from './webhooks.js'
export {
  verifyCheckpoint,
  verifyInclusion,
  verifyConsistency,
  parseCheckpoint,
  eventLeafHash,
  eventHash,
  verifyChain,
  GENESIS_HASH,
} from './evidence.js'
export type {
  ChainEvent,
  ChainHead,
  ChainVerdict,
  ConsistencyInput,
  EvidenceKey,
  EvidenceKeys,
  EvidenceOptions,
  InclusionInput,
  SealInput,
  TreeHead,
  VerifyChainOptions,
} from './evidence.js'
export type { WebCrypto } from './web-crypto.js'
export { OPERATIONS } from './generated/resources.js'
export type * from './generated/resources.js'
export type { components, operations, paths } from './generated/openapi.js'
