/** The org event log: append with a write, read the feed, the published hash recipe. */
export { registerAuditRoutes } from './audit.routes.js'
export {
  createAuditLog,
  type AppendItem,
  type AuditActor,
  type AuditLog,
  type AuditLogDeps,
  type Outbox,
} from './audit.service.js'
export { presentEvent } from './audit.rows.js'
export { eventHash, GENESIS_HASH, type ChainedContent } from './audit.chain.js'
export {
  OrgEventList,
  OrgEventQuery,
  OrgEventSchema,
  type OrgEvent,
  type OrgEventDetail,
  type Resource,
} from './audit.schemas.js'
