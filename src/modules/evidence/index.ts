/** Evidence: seals of each org's log (signed Merkle checkpoints), proofs and keys. */
export { registerEvidenceRoutes } from './evidence.routes.js'
export { createEvidenceModule } from './evidence.module.js'
export type { EvidenceService } from './evidence.service.js'
export { loadEvidenceSigner, type EvidenceSigner } from './evidence.keys.js'
export { eventLeaf } from './evidence.checkpoint.js'
export { sealFailure, verifySeals, type SealReport, type SealStart } from './evidence.verify.js'
