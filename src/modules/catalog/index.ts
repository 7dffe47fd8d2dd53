/** The rights catalog: works, recordings, releases and their splits. */
export { registerCatalogRoutes } from './catalog.routes.js'
export { createCatalogService, presentEntry, type CatalogService, type CatalogDeps } from './catalog.service.js'
export type { CatalogEntry, CreateCatalogBody } from './catalog.schemas.js'
// The reads revenue needs to resolve a line's catalog reference inside its own transaction.
export {
  activeEntriesQuery,
  activeSplitsQuery,
  findEntry,
  type CatalogRow,
  type EntryReference,
  type SplitRow,
} from './catalog.repo.js'
