/** Creators: the people, groups and companies credited and paid. */
export { registerCreatorRoutes } from './creators.routes.js'
export { createCreatorsService, presentCreator, type CreatorsService, type CreatorsDeps } from './creators.service.js'
export { CREATOR_ROLES, CreatorRole, type Creator, type CreateCreatorBody } from './creators.schemas.js'
// The reads and locks other families take on creators inside their own transactions.
export { existingCreatorIds, findCreator, lockCreator, lockCreatorQuery, type CreatorRow } from './creators.repo.js'
