/** OAuth 2.0 clients, the token endpoint and discovery, the request log. */
export { registerClientRoutes } from './oauth.routes.js'
export { registerTokenRoute } from './oauth.token-route.js'
export { registerDiscoveryRoute } from './oauth.discovery.js'
export {
  createClientsService,
  presentClient,
  type ClientsDeps,
  type ClientsService,
  type ProductionAccess,
  type ProductionAccessPolicy,
} from './oauth.clients.js'
export { createTokensService, type TokensDeps, type TokensService } from './oauth.tokens.js'
export { createRequestLog, registerRequestLog, type RequestLog, type RequestLogDeps } from './oauth.request-log.js'
export type { Client, ClientWithSecret } from './oauth.schemas.js'
