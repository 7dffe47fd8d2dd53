/** Ticketed events: venues, ticket types, publish and cancel. */
export { registerTicketingRoutes } from './ticketing.routes.js'
export { createTicketingService, type TicketingService, type TicketingDeps } from './ticketing.service.js'
export type { CreateEventBody, TicketedEvent } from './ticketing.schemas.js'
// The reads revenue needs for a ticket sale's event.
export { eventQuery, findEvent } from './ticketing.repo.js'
