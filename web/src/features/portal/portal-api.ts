import { useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import { useWrite } from '../../app/write'

/** This deployment: its region and the other regions' (the sign-up's region choice). */
export const deploymentQuery = {
  queryKey: ['deployment'] as const,
  queryFn: () => unwrap(api.GET('/api/deployment')),
  staleTime: Infinity,
}
export type Deployment = Schemas['Deployment']

const fetchPartner = () => unwrap(api.GET('/api/partner'))
export type Partner = Awaited<ReturnType<typeof fetchPartner>>
export type OnboardingStep = Partner['onboarding']['steps'][number]

/**
 * A partner changes by itself while a review is under way (an operator decides) and while
 * integration testing waits for real sandbox traffic: the portal asks again meanwhile.
 */
export const changesByItself = (partner: Partner) =>
  partner.status === 'in_review' ||
  partner.onboarding.steps.some((step) => step.key === 'integration_testing' && step.status !== 'done')

/** The signed-in person's partner: status, onboarding steps, limits. */
export const partnerQuery = {
  queryKey: ['partner'] as const,
  queryFn: fetchPartner,
  refetchInterval: (query: { state: { data: Partner | undefined } }) =>
    query.state.data && changesByItself(query.state.data) ? 3000 : false,
}

const fetchAgreement = () => unwrap(api.GET('/api/partner/agreement'))
export type Agreement = Awaited<ReturnType<typeof fetchAgreement>>

export const agreementQuery = {
  queryKey: ['partner', 'agreement'] as const,
  queryFn: fetchAgreement,
  staleTime: Infinity,
}

export type PartnerSignupRequest = Schemas['PartnerSignUpRequest']

/** What was typed at sign-up, but the password: carried to another region's sign-up, or brought from one. */
export type SignupDraft = Partial<Record<'name' | 'email' | 'company' | 'tier', string | undefined>>
export type PartnerSignup = Schemas['PartnerCookieSignUp']
export type PartnerStatus = Partner['status']

/**
 * A partner's sign-up: an account with its cookie session, the partner, a sandbox org and client.
 * Not idempotent (a replayed answer could not set the cookie again), like the app's own sign-up.
 */
export const signUpPartner = (body: PartnerSignupRequest) => unwrap(api.POST('/api/partners/signup/cookie', { body }))

export type PartnerApplyRequest = Schemas['PartnerApplyRequest']
export type PartnerApplyResult = Schemas['PartnerApply']

/**
 * A signed-in account becomes a partner: it keeps its orgs, and the new sandbox org becomes the
 * session's active org. `onApplied` is told first; then what was loaded for the other org is
 * dropped and the user asked again (kept meanwhile, so the page showing the answer stays).
 */
export function useApplyPartner(onApplied: (answer: PartnerApplyResult) => void) {
  const queryClient = useQueryClient()
  return useWrite({
    request: (body: PartnerApplyRequest, headers) => unwrap(api.POST('/api/partners/apply', { body, headers })),
    onSuccess: async (answer) => {
      onApplied(answer)
      void queryClient.resetQueries({ predicate: (query) => !['me', 'deployment'].includes(String(query.queryKey[0])) })
      await queryClient.invalidateQueries({ queryKey: ['me'] })
    },
  })
}

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

/** A partner as an operator sees it; asked again while its review is open (another operator may decide). */
export const operatorPartnerQuery = (id: string) => ({
  queryKey: ['operator', 'partners', id] as const,
  queryFn: () => fetchOperatorPartner(id),
  refetchInterval: (query: { state: { data: OperatorPartner | undefined } }) =>
    query.state.data?.status === 'in_review' ? 5000 : false,
})

const partnerKeys = [['partner']] as const

export interface Application {
  website: string
  useCase: string
  expectedMonthlyRequests: number
}

/** The onboarding steps a partner takes in the portal; each refetches the partner. */
export function useSubmitApplication() {
  return useWrite({
    request: (body: Application, headers) => unwrap(api.POST('/api/partner/application', { body, headers })),
    invalidates: partnerKeys,
  })
}

export function useSignAgreement() {
  return useWrite({
    request: (body: { version: string; signerName: string; accepted: true }, headers) =>
      unwrap(api.POST('/api/partner/agreement', { body, headers })),
    invalidates: partnerKeys,
  })
}

export function useRequestReview() {
  return useWrite({
    request: (_: void, headers) => unwrap(api.POST('/api/partner/review-requests', { headers })),
    sameAs: () => 'review',
    invalidates: partnerKeys,
  })
}

export type Decision = 'approve' | 'request-changes' | 'reject' | 'suspend' | 'resume'
export interface DecisionBody {
  reason?: string
  rateLimit?: number
  burst?: number
}

/** An operator's decision on a partner; the queue and the partner are refetched (also when another operator decided first). */
export function useDecision(id: string, decision: Decision) {
  const queryClient = useQueryClient()
  return useWrite({
    request: (body: DecisionBody, headers) => {
      const path = { id }
      const reason = { reason: body.reason ?? '' }
      switch (decision) {
        case 'approve':
          return unwrap(api.POST('/api/operator/partners/{id}/approve', { params: { path }, body, headers }))
        case 'request-changes':
          return unwrap(
            api.POST('/api/operator/partners/{id}/request-changes', { params: { path }, body: reason, headers }),
          )
        case 'reject':
          return unwrap(api.POST('/api/operator/partners/{id}/reject', { params: { path }, body: reason, headers }))
        case 'suspend':
          return unwrap(api.POST('/api/operator/partners/{id}/suspend', { params: { path }, body: reason, headers }))
        case 'resume':
          return unwrap(api.POST('/api/operator/partners/{id}/resume', { params: { path }, headers }))
      }
    },
    sameAs: (body) => ({ id, decision, body }),
    invalidates: [['operator']],
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['partner'] }),
  })
}
