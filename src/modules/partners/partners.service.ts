import { createOperatorDecisions, type OperatorDecisions, type OperatorDecisionsDeps } from './partners.decisions.js'
import { createPartnerSignup, type PartnerSignup, type PartnerSignupDeps } from './partners.signup.js'
import { createPartnerSteps, type PartnerSteps, type PartnerStepsDeps } from './partners.steps.js'

export type { OperatorCaller } from './partners.decisions.js'
export type { PartnerCaller } from './partners.steps.js'

/**
 * The partner program: sign-up (partners.signup.ts), the partner's own onboarding steps
 * (partners.steps.ts) and the operators' decisions (partners.decisions.ts). Production access
 * for the clients service is partners.access.ts.
 */
export interface PartnersService extends PartnerSignup, PartnerSteps, OperatorDecisions {}

export type PartnersDeps = PartnerSignupDeps & PartnerStepsDeps & OperatorDecisionsDeps

export function createPartnersService(deps: PartnersDeps): PartnersService {
  return { ...createPartnerSignup(deps), ...createPartnerSteps(deps), ...createOperatorDecisions(deps) }
}
