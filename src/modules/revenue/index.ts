/** Revenue: immutable entries allocated to creators, statement imports, line proofs. */
export { registerRevenueRoutes } from './revenue.routes.js'
export { registerRevenueImportRoute } from './revenue.import-route.js'
export { createRevenueService, presentRevenue, type RevenueService, type RevenueDeps } from './revenue.service.js'
export type { ImportOptions, ImportProgress, ImportReport } from './revenue.import.js'
export { STATEMENT_COLUMNS } from './revenue.statement.js'
export { revenueBatchLines } from './revenue.batch-lines.js'
export type { CreateRevenueBody, Revenue } from './revenue.schemas.js'
