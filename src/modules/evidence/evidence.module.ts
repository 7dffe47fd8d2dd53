import type { Config } from '../../config.js'
import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { Job } from '../../worker/worker.js'
import type { AuditLog } from '../audit/index.js'
import { decodeSecretsKey } from '../../platform/secrets-key.js'
import { ephemeralEvidenceSigner, signerFromSecretsKey, type EvidenceSigner } from './evidence.keys.js'
import { createEvidenceService, createSealJob, type EvidenceService } from './evidence.service.js'

export interface EvidenceModule {
  evidence: EvidenceService
  signer: EvidenceSigner
  jobs: Job[]
}

/** The evidence service and the sealing job; the key as `createWebhooksModule` finds its own. */
export function createEvidenceModule(deps: {
  config: Config
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: AuditLog
  signer?: EvidenceSigner
}): EvidenceModule {
  const { config, db, clock, ids, audit } = deps
  const signer =
    deps.signer ??
    (config.secretsKey ? signerFromSecretsKey(decodeSecretsKey(config.secretsKey)) : ephemeralEvidenceSigner())
  const evidence = createEvidenceService({ db, clock, ids, audit, signer, region: config.region })
  const jobs = [
    createSealJob({ db, clock, evidence, everyEvents: config.sealEveryEvents, everySeconds: config.sealEverySeconds }),
  ]
  return { evidence, signer, jobs }
}
