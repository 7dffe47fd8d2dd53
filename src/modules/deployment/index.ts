/** What this deployment is: its region and its modules. */
export { registerDeploymentRoutes } from './deployment.routes.js'
