import { createOrgInvitations, type OrgInvitations, type OrgInvitationsDeps } from './orgs.invitations.js'
import { createOrgMembers, type OrgMembers, type OrgMembersDeps } from './orgs.members.js'
import { createOrgProvisioning, type OrgProvisioning, type OrgProvisioningDeps } from './orgs.provision.js'

export { INVITATION_TTL_MS } from './orgs.invitations.js'
export type { ProvisionInput, UserContext } from './orgs.provision.js'

/**
 * Orgs: their creation and provisioning (orgs.provision.ts), their members and a session's
 * active org (orgs.members.ts), and their invitations (orgs.invitations.ts).
 */
export interface OrgsService extends OrgProvisioning, OrgMembers, OrgInvitations {}

export type OrgsDeps = OrgProvisioningDeps & OrgMembersDeps & OrgInvitationsDeps

export function createOrgsService(deps: OrgsDeps): OrgsService {
  return { ...createOrgProvisioning(deps), ...createOrgMembers(deps), ...createOrgInvitations(deps) }
}
