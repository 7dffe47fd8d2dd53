/** Accounts, sessions, orgs, members and invitations. */
export { registerOrgRoutes } from './orgs.routes.js'
export {
  createAuthService,
  normaliseEmail,
  presentUser,
  SESSION_ABSOLUTE_MS,
  type AuthDeps,
  type AuthService,
} from './auth.service.js'
export { createOrgsService, type OrgsDeps, type OrgsService, type ProvisionInput } from './orgs.service.js'
export {
  CookieSessionResponse,
  LoginResponse,
  MemberList,
  MemberQuery,
  OrgSchema,
  type Member,
  type User,
} from './orgs.schemas.js'
export { createPasswordResets, OPERATOR_LINK_MS, type PasswordResets } from './orgs.password-reset.js'
