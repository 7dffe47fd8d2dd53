import { api, unwrap, type Schemas } from '../../api/client'

/** This deployment: its region and the other regions' (the sign-up's region choice). */
export const deploymentQuery = {
  queryKey: ['deployment'] as const,
  queryFn: () => unwrap(api.GET('/api/deployment')),
  staleTime: Infinity,
}

const fetchPartner = () => unwrap(api.GET('/api/partner'))
export type Partner = Awaited<ReturnType<typeof fetchPartner>>
export type OnboardingStep = Partner['onboarding']['steps'][number]

/** The signed-in person's partner: status, onboarding steps, limits. */
export const partnerQuery = { queryKey: ['partner'] as const, queryFn: fetchPartner }

const fetchAgreement = () => unwrap(api.GET('/api/partner/agreement'))
export type Agreement = Awaited<ReturnType<typeof fetchAgreement>>

export const agreementQuery = {
  queryKey: ['partner', 'agreement'] as const,
  queryFn: fetchAgreement,
  staleTime: Infinity,
}

export type PartnerSignupRequest = Schemas['PartnerSignUpRequest']
export type PartnerSignup = Schemas['PartnerCookieSignUp']
export type PartnerStatus = Partner['status']

const fetchOperatorPartners = (status: PartnerStatus | undefined, cursor: string | undefined) =>
  unwrap(api.GET('/api/operator/partners', { params: { query: { status, cursor } } }))
export type OperatorPartnerList = Awaited<ReturnType<typeof fetchOperatorPartners>>

/** The review queue (operators only: anyone else gets 404). */
export const operatorPartnersQuery = (search: { status?: PartnerStatus | undefined; cursor?: string | undefined }) => ({
  queryKey: ['operator', 'partners', search] as const,
  queryFn: () => fetchOperatorPartners(search.status, search.cursor),
})

const fetchOperatorPartner = (id: string) =>
  unwrap(api.GET('/api/operator/partners/{id}', { params: { path: { id } } }))
export type OperatorPartner = Awaited<ReturnType<typeof fetchOperatorPartner>>

export const operatorPartnerQuery = (id: string) => ({
  queryKey: ['operator', 'partners', id] as const,
  queryFn: () => fetchOperatorPartner(id),
})
