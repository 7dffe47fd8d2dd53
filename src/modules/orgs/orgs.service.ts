import { createOrgMembers, type OrgMembers, type OrgMembersDeps } from './orgs.members.js'
import { createOrgProvisioning, type OrgProvisioning, type OrgProvisioningDeps } from './orgs.provision.js'

export { INVITATION_TTL_MS } from './orgs.members.js'
export type { ProvisionInput, UserContext } from './orgs.provision.js'

/**
 * Orgs: their creation and provisioning (orgs.provision.ts), and their members, invitations and
 * a session's active org (orgs.members.ts).
 */
export interface OrgsService extends OrgProvisioning, OrgMembers {}

export type OrgsDeps = OrgProvisioningDeps & OrgMembersDeps

export function createOrgsService(deps: OrgsDeps): OrgsService {
  return { ...createOrgProvisioning(deps), ...createOrgMembers(deps) }
}
