/** The partner program: sign-up, onboarding, operator review, production access. */
export { registerPartnerRoutes } from './partners.routes.js'
export {
  createPartnersService,
  type OperatorCaller,
  type PartnerCaller,
  type PartnersDeps,
  type PartnersService,
} from './partners.service.js'
export { partnerProductionAccess } from './partners.access.js'
export { SANDBOX_SCOPES } from './partners.signup.js'
