/** Payouts: balances, statements, the lifecycle, payout runs and the sandbox rail. */
export { registerPayoutRoutes } from './payouts.routes.js'
export { createPayoutsService, presentPayout, type PayoutsService, type PayoutsDeps } from './payouts.service.js'
export { runPayouts, type PayoutRunOptions, type PayoutRunReport } from './payouts.run.js'
export { createSandboxRail } from './payouts.sandbox.js'
export { payoutBatchLines } from './payouts.batch-lines.js'
export { statementFromTotals, type Statement } from './payouts.statement.js'
export type { CreatePayoutBody, Payout } from './payouts.schemas.js'
