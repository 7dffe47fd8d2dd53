/** The partner surface's own routes (the org feed, members) and its versioning. */
export { registerV1Routes } from './v1.routes.js'
export { registerV1Deprecation } from './v1.deprecation.js'
export { addPartnerExamples } from './v1.openapi.js'
