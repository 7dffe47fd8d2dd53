import type { Database } from '../../database.js'
import type { ProductionAccessPolicy } from '../oauth/index.js'
import { productionLimits } from './partners.onboarding.js'
import { partnerById } from './partners.repo.js'

/**
 * The clients service's production gate: a production org gets credentials only when it belongs
 * to a live partner (a platform integrator's with the limits set at its approval).
 */
export function partnerProductionAccess(db: Database): ProductionAccessPolicy {
  return async (orgId) => {
    const org = await db.read(orgId, (reader) =>
      reader.selectFrom('orgs').select('partner_id').where('org_id', '=', orgId).executeTakeFirst(),
    )
    if (!org?.partner_id) return false
    const partner = await partnerById(db.global, org.partner_id)
    if (!partner || partner.status !== 'live') return false
    return { defaultLimits: partner.tier === 'platform_integrator' ? productionLimits(partner) : null }
  }
}
