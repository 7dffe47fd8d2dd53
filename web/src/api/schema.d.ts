// Generated from openapi.json by `npm run web:generate`. Do not edit.

export type paths = {
  '/api/deployment': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** This deployment: its name, region (and the other regions’ base URLs), modules and links */
    get: operations['getDeployment']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/signup': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Create an account and a session */
    post: operations['signUp']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/login': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Log in: exchange email and password for a session token */
    post: operations['logIn']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/signup/cookie': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Create an account and a cookie session (the web app)
     * @description For the web app: the session is set as an HttpOnly, SameSite=Lax cookie (Secure over HTTPS). Requests need the X-Oeuvre-CSRF header and an Origin equal to PUBLIC_URL (else 403 csrf_failed), as does every write the cookie authenticates later.
     */
    post: operations['signUpWithCookie']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/login/cookie': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Log in with a cookie session (the web app)
     * @description For the web app: the session is set as an HttpOnly, SameSite=Lax cookie (Secure over HTTPS). Requests need the X-Oeuvre-CSRF header and an Origin equal to PUBLIC_URL (else 403 csrf_failed), as does every write the cookie authenticates later.
     */
    post: operations['logInWithCookie']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/logout': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** End this session */
    post: operations['logOut']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/me': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The user, their memberships and the active org */
    get: operations['getMe']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/orgs': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Create an org; the caller becomes its owner and it becomes the session’s active org
     * @description `environment` is `production` unless the body asks for `sandbox` (fixed at creation); production orgs get OAuth clients only once the partner onboarding review has passed. The answer’s `activeOrgId` is the new org: the session’s /api routes act on it from now on.
     */
    post: operations['createOrg']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/session/active-org': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Switch the active org (must be a member) */
    post: operations['setActiveOrg']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/members': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Members of the active org */
    get: operations['listMembers']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/members/{userId}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    post?: never
    /** Remove a member (emits member.removed); never the last owner */
    delete: operations['removeMember']
    options?: never
    head?: never
    /**
     * Change a member’s role (emits member.role_changed); an org keeps at least one owner
     * @description Admins manage every role but owner; only an owner makes or unmakes owners.
     */
    patch: operations['changeMemberRole']
    trace?: never
  }
  '/api/members/invitations': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Invitations not accepted or revoked, with who invited and when */
    get: operations['listInvitations']
    put?: never
    /**
     * Invite someone to the active org and email them the link (emits member.invited)
     * @description Inviting an email that has an open invitation sends that invitation again: the same link, valid 7 days from now, in the role asked now.
     */
    post: operations['inviteMember']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/members/invitations/{id}/revoke': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Revoke an invitation: its link stops working (emits member.invitation_revoked) */
    post: operations['revokeInvitation']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/members/invitations/{id}/resend': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Email an open invitation again: the same link, valid 7 days from now (emits member.invited) */
    post: operations['resendInvitation']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/invitations/preview': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** What an invitation link leads to, before signing in: the org, who invited, the role, its status */
    post: operations['previewInvitation']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/invitations/accept': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Accept an invitation sent to your email (emits member.joined) */
    post: operations['acceptInvitation']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/password-reset': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Email a single-use link to reset the password (202, the same answer whether or not the account exists) */
    post: operations['requestPasswordReset']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/auth/password-reset/confirm': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Set a new password with the link’s token, once: every session ends, and an email says so */
    post: operations['confirmPasswordReset']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/email-kinds': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The emails the service sends, and the variables each kind’s templates may use */
    get: operations['listEmailKinds']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/account/email-preferences': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Which non-security emails you receive (security emails always go) */
    get: operations['getEmailPreferences']
    /** Choose which non-security emails you receive; kinds left out keep their choice */
    put: operations['setEmailPreferences']
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/webhook-kinds': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The event kinds a webhook endpoint may subscribe to, each with its group and what it means */
    get: operations['listWebhookKinds']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/org-events': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The active org’s events (the audit log) with who did each: oldest first (the cursor always returned so you can poll) or newest first */
    get: operations['listOrgEvents']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/org-events/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One org event, with the hash of the event before it */
    get: operations['getOrgEvent']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/clients': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** OAuth clients of the active org, newest first */
    get: operations['listOAuthClients']
    put?: never
    /**
     * Create an OAuth client (emits client.created)
     * @description The secret is shown in this response only (just its SHA-256 hash is kept): an idempotent replay returns the client without it. Clients of a sandbox org get cs_test_ secrets and the sandbox rate tier; production orgs need a passed partner onboarding review (403 production_access_pending until then).
     */
    post: operations['createOAuthClient']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/clients/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One OAuth client */
    get: operations['getOAuthClient']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/clients/{id}/requests': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * The client’s request log: its /oauth/token and /v1 requests of the last 30 days, newest first
     * @description Every request made with the client’s credentials (a token request with a wrong secret included, as 401), recorded when answered and written in batches, so the latest may take about a second to appear. Filter by `status` (a class such as 4xx, or an exact code) and by `path` (a route pattern).
     */
    get: operations['listOAuthClientRequests']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/clients/{id}/rotate-secret': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Issue a new secret (emits client.secret_rotated); the previous one keeps working for the grace period (24 h by default)
     * @description The secret is shown in this response only (just its SHA-256 hash is kept): an idempotent replay returns the client without it.
     */
    post: operations['rotateOAuthClientSecret']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/clients/{id}/revoke': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Revoke a client now (emits client.revoked): its secrets and every access token it holds stop working */
    post: operations['revokeOAuthClient']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/oauth/token': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Exchange client credentials for an access token (OAuth 2.0 client credentials, RFC 6749 section 4.4)
     * @description Form-encoded. Credentials in the body (client_id, client_secret) or with HTTP Basic, not both. `scope` is required. The token is valid for 1 hour; there is no refresh token. Errors follow RFC 6749 section 5.2 ({error, error_description}), not problem+json: invalid_request, invalid_client (401), unsupported_grant_type, invalid_scope, rate_limited (429, with Retry-After), wrong_region (421, with the `baseUrl` of the region the client belongs to). Valid exchanges are limited per client, at the client’s tier (a bucket apart from its API requests), not per address; failed client authentications are throttled per client id and per address.
     */
    post: operations['requestAccessToken']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/.well-known/oauth-authorization-server': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * OAuth 2.0 authorization server metadata (RFC 8414): the token endpoint, grant, auth methods, scopes
     * @description Public and static: no authentication, not rate limited, cacheable for an hour. OAuth libraries (`openid-client`’s `discovery()`, ...) configure the token endpoint from it.
     */
    get: operations['getAuthorizationServerMetadata']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The orgs this token may act in (a client acts in its own org): the orgId of every other route */
    get: operations['v1ListOrgs']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/events': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /**
     * The org event feed, oldest first
     * @description Filters `action`, `since`, `until`. The cursor is always returned, also on the last page and on an empty one: store it and poll later with `?cursor=` to get exactly the events appended since, none twice and none missed.
     */
    get: operations['v1ListOrgEvents']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/events/{eventId}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One org event */
    get: operations['v1GetOrgEvent']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/members': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Members of the org, newest first */
    get: operations['v1ListMembers']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/creators': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List creators, newest first */
    get: operations['listCreators']
    put?: never
    /** Create a creator (emits creator.created) */
    post: operations['createCreator']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/creators/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Fetch one creator */
    get: operations['getCreator']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/catalog': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List catalog entries, newest first (filters: kind, isrc, creatorId, q) */
    get: operations['listCatalogEntries']
    put?: never
    /** Create a catalog entry, or a correction that supersedes one (emits catalog.created, and catalog.superseded) */
    post: operations['createCatalogEntry']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/catalog/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Fetch one catalog entry */
    get: operations['getCatalogEntry']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/events': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List ticketed events, newest first */
    get: operations['listTicketedEvents']
    put?: never
    /** Create a ticketed event (emits ticketed_event.created) */
    post: operations['createTicketedEvent']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/events/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Fetch one ticketed event */
    get: operations['getTicketedEvent']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/events/{id}/publish': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Publish a draft event (emits ticketed_event.published) */
    post: operations['publishTicketedEvent']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/events/{id}/cancel': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Cancel an event that has not ended (emits ticketed_event.cancelled) */
    post: operations['cancelTicketedEvent']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/revenue': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List revenue entries, newest first (filters: catalogId, creatorId, periodFrom, periodTo, currency, batchId) */
    get: operations['listRevenueEntries']
    put?: never
    /** Record a revenue entry, allocated to the creators by the entry’s splits (emits revenue.created) */
    post: operations['createRevenueEntry']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/revenue/{revenueId}/proof': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** An imported line’s RFC 6962 inclusion proof in its batch’s revenue.imported event (data.root), from the stored line */
    get: operations['getRevenueEntryProof']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/revenue/imports': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Import a DSP statement (text/csv, up to 50 MiB, streamed): lines booked in batches as revenue.imported events, lines recorded already skipped, invalid ones rejected with their line numbers */
    post: operations['importRevenueStatement']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/payouts': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List payouts, newest first */
    get: operations['listPayouts']
    put?: never
    /** Pay a creator everything unpaid in one currency, rounded down to its minor unit (emits payout.created) */
    post: operations['createPayout']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/payouts/balances': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** What a payout created now would pay, per creator and currency (a page of creators) */
    get: operations['listPayoutBalances']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/payouts/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Fetch one payout with its statement */
    get: operations['getPayout']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/payouts/{id}/lines': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The allocations a payout’s statement includes, in revenue id order */
    get: operations['listPayoutLines']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/payouts/{id}/cancel': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Cancel a pending payout; its allocations become payable again (emits payout.canceled) */
    post: operations['cancelPayout']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/payouts/{id}/mark-in-transit': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Manual payouts: the money has been sent (emits payout.in_transit) */
    post: operations['markPayoutInTransit']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/payouts/{id}/mark-paid': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Manual payouts: the money has arrived (emits payout.paid) */
    post: operations['markPayoutPaid']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/payouts/{id}/mark-failed': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** A pending or in-transit payout failed; its allocations become payable again (emits payout.failed) */
    post: operations['markPayoutFailed']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/creators': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List creators, newest first */
    get: operations['v1ListCreators']
    put?: never
    /** Create a creator (emits creator.created) */
    post: operations['v1CreateCreator']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/creators/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Fetch one creator */
    get: operations['v1GetCreator']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/catalog': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List catalog entries, newest first (filters: kind, isrc, creatorId, q) */
    get: operations['v1ListCatalogEntries']
    put?: never
    /** Create a catalog entry, or a correction that supersedes one (emits catalog.created, and catalog.superseded) */
    post: operations['v1CreateCatalogEntry']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/catalog/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Fetch one catalog entry */
    get: operations['v1GetCatalogEntry']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/ticketed-events': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List ticketed events, newest first */
    get: operations['v1ListTicketedEvents']
    put?: never
    /** Create a ticketed event (emits ticketed_event.created) */
    post: operations['v1CreateTicketedEvent']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/ticketed-events/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Fetch one ticketed event */
    get: operations['v1GetTicketedEvent']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/ticketed-events/{id}/publish': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Publish a draft event (emits ticketed_event.published) */
    post: operations['v1PublishTicketedEvent']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/ticketed-events/{id}/cancel': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Cancel an event that has not ended (emits ticketed_event.cancelled) */
    post: operations['v1CancelTicketedEvent']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/revenue': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List revenue entries, newest first (filters: catalogId, creatorId, periodFrom, periodTo, currency, batchId) */
    get: operations['v1ListRevenueEntries']
    put?: never
    /** Record a revenue entry, allocated to the creators by the entry’s splits (emits revenue.created) */
    post: operations['v1CreateRevenueEntry']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/revenue/{revenueId}/proof': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** An imported line’s RFC 6962 inclusion proof in its batch’s revenue.imported event (data.root), from the stored line */
    get: operations['v1GetRevenueEntryProof']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/payouts': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List payouts, newest first */
    get: operations['v1ListPayouts']
    put?: never
    /** Pay a creator everything unpaid in one currency, rounded down to its minor unit (emits payout.created) */
    post: operations['v1CreatePayout']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/payouts/balances': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** What a payout created now would pay, per creator and currency (a page of creators) */
    get: operations['v1ListPayoutBalances']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/payouts/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Fetch one payout with its statement */
    get: operations['v1GetPayout']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/payouts/{id}/lines': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The allocations a payout’s statement includes, in revenue id order */
    get: operations['v1ListPayoutLines']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/payouts/{id}/cancel': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Cancel a pending payout; its allocations become payable again (emits payout.canceled) */
    post: operations['v1CancelPayout']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/payouts/{id}/mark-in-transit': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Manual payouts: the money has been sent (emits payout.in_transit) */
    post: operations['v1MarkPayoutInTransit']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/payouts/{id}/mark-paid': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Manual payouts: the money has arrived (emits payout.paid) */
    post: operations['v1MarkPayoutPaid']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/payouts/{id}/mark-failed': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** A pending or in-transit payout failed; its allocations become payable again (emits payout.failed) */
    post: operations['v1MarkPayoutFailed']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/webhooks': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List webhook endpoints */
    get: operations['listWebhooks']
    put?: never
    /** Register an endpoint; the answer carries its signing secret (shown once) */
    post: operations['createWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/webhooks/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One webhook endpoint */
    get: operations['getWebhook']
    put?: never
    post?: never
    /** Delete an endpoint (its delivery log is kept until pruned) */
    delete: operations['deleteWebhook']
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/webhooks/{id}/disable': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Stop deliveries to this endpoint */
    post: operations['disableWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/webhooks/{id}/enable': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Resume deliveries to this endpoint */
    post: operations['enableWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/webhooks/{id}/rotate-secret': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** New signing secret; for 24 hours X-Service-Signature stays signed with the old one, webhook-signature with both */
    post: operations['rotateWebhookSecret']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/webhooks/{id}/test': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Send a webhook.test event to this endpoint only */
    post: operations['testWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/webhooks/{id}/deliveries': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Delivery log: every delivery with every attempt, newest first */
    get: operations['listWebhookDeliveries']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Send a delivery again (same delivery id, a new run of the retry schedule) */
    post: operations['redeliverWebhookDelivery']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/webhooks/{id}/deliveries/redeliver-failed': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Send again every failed delivery created since a time (oldest first, up to 500 a call) */
    post: operations['redeliverFailedWebhookDeliveries']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/webhooks': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** List webhook endpoints */
    get: operations['v1ListWebhooks']
    put?: never
    /** Register an endpoint; the answer carries its signing secret (shown once) */
    post: operations['v1CreateWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/webhooks/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One webhook endpoint */
    get: operations['v1GetWebhook']
    put?: never
    post?: never
    /** Delete an endpoint (its delivery log is kept until pruned) */
    delete: operations['v1DeleteWebhook']
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/webhooks/{id}/disable': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Stop deliveries to this endpoint */
    post: operations['v1DisableWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/webhooks/{id}/enable': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Resume deliveries to this endpoint */
    post: operations['v1EnableWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/webhooks/{id}/rotate-secret': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** New signing secret; for 24 hours X-Service-Signature stays signed with the old one, webhook-signature with both */
    post: operations['v1RotateWebhookSecret']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/webhooks/{id}/test': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Send a webhook.test event to this endpoint only */
    post: operations['v1TestWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/webhooks/{id}/deliveries': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Delivery log: every delivery with every attempt, newest first */
    get: operations['v1ListWebhookDeliveries']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Send a delivery again (same delivery id, a new run of the retry schedule) */
    post: operations['v1RedeliverWebhookDelivery']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/webhooks/{id}/deliveries/redeliver-failed': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Send again every failed delivery created since a time (oldest first, up to 500 a call) */
    post: operations['v1RedeliverFailedWebhookDeliveries']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/evidence/keys': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The Ed25519 public keys that sign seals (JWKS) */
    get: operations['v1GetEvidenceKeys']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/seals': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Seals of the org event log, newest first */
    get: operations['listSeals']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/seals/{sealId}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One seal */
    get: operations['getSeal']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/seals/{sealId}/consistency': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** RFC 9162 consistency proof: the seal extends the older seal `from` */
    get: operations['getSealConsistencyProof']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/org-events/{id}/proof': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** RFC 9162 inclusion proof of one event in a seal (default: the newest seal) */
    get: operations['getOrgEventInclusionProof']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/seals': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Seals of the org event log, newest first */
    get: operations['v1ListSeals']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/seals/{sealId}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One seal */
    get: operations['v1GetSeal']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/seals/{sealId}/consistency': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** RFC 9162 consistency proof: the seal extends the older seal `from` */
    get: operations['v1GetSealConsistencyProof']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/v1/orgs/{orgId}/events/{eventId}/proof': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** RFC 9162 inclusion proof of one event in a seal (default: the newest seal) */
    get: operations['v1GetOrgEventInclusionProof']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/partners/signup': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Sign up as a partner: an account, a sandbox org with demo data and sandbox credentials at once
     * @description One transaction creates the user, the partner, its sandbox org and a sandbox OAuth client holding every read scope and webhooks:write (its secret shown once); the demo records follow through the services. Answers like login, the sandbox org active. `region` defaults to this deployment’s; another region answers 421 wrong_region. A replay for the same Idempotency-Key answers without `token`, `expiresAt` and the client `secret` (neither is stored): log in, or rotate the secret.
     */
    post: operations['partnerSignUp']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/partners/signup/cookie': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Partner sign-up with a cookie session (the portal)
     * @description As /api/partners/signup, the session set as an HttpOnly, SameSite=Lax cookie (Secure over HTTPS) and left out of the body. Needs the X-Oeuvre-CSRF header and an Origin equal to PUBLIC_URL (else 403 csrf_failed).
     */
    post: operations['partnerSignUpWithCookie']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/partners/apply': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Become a partner with the signed-in account: a sandbox org with demo data and sandbox credentials
     * @description As /api/partners/signup without making a user: the account keeps its orgs, and the new sandbox org becomes the session’s active org. 409 conflict when the account is a partner already. A replay for the same Idempotency-Key answers without the client `secret` (never stored): rotate it.
     */
    post: operations['partnerApply']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/partner': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The caller’s partner: status, onboarding steps, what is due, limits */
    get: operations['getPartner']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/partner/application': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Submit (or correct) the application step */
    post: operations['submitPartnerApplication']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/partner/agreement': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The partner agreement in force: text, version and its SHA-256 */
    get: operations['getPartnerAgreement']
    put?: never
    /** Sign the agreement (org event partner.agreement_signed, in the hash chain) */
    post: operations['signPartnerAgreement']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/partner/review-requests': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Ask for the go-live review (every earlier step done)
     * @description One open request at a time: a second answers 409 conflict.
     */
    post: operations['requestPartnerReview']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/operator/partners': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Partners, newest first (operators only) */
    get: operations['operatorListPartners']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/operator/partners/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** A partner with its application, agreement evidence, steps and review requests (operators only) */
    get: operations['operatorGetPartner']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/operator/partners/{id}/approve': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Approve: the partner goes live (operators only) */
    post: operations['operatorApprovePartner']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/operator/partners/{id}/request-changes': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Ask the partner for changes, with a reason (operators only) */
    post: operations['operatorRequestPartnerChanges']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/operator/partners/{id}/reject': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Reject the partner, with a reason (operators only) */
    post: operations['operatorRejectPartner']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/operator/partners/{id}/suspend': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Suspend a live partner: its production clients get no more tokens (operators only) */
    post: operations['operatorSuspendPartner']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/operator/partners/{id}/resume': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Resume a suspended partner (operators only) */
    post: operations['operatorResumePartner']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
}
export type webhooks = Record<string, never>
export type components = {
  schemas: {
    /** @description What a client needs to know of this deployment before signing in */
    Deployment: {
      /** @description The product name this deployment shows */
      name: string
      /** @description A data-residency region */
      region: 'us-east' | 'eu-west' | 'au-east'
      /** @description Every region, with the deployment that serves it: a region’s data is only ever there */
      regions: {
        /** @description A data-residency region */
        region: 'us-east' | 'eu-west' | 'au-east'
        /** @description That region’s deployment, where this one knows it (null when not configured) */
        baseUrl: string | null
      }[]
      modules: {
        /** @description Whether the module’s routes and pages are on */
        catalog: boolean
        /** @description Whether the module’s routes and pages are on */
        creators: boolean
        /** @description Whether the module’s routes and pages are on */
        revenue: boolean
        /** @description Whether the module’s routes and pages are on */
        payouts: boolean
        /** @description Whether the module’s routes and pages are on */
        events: boolean
        /** @description Whether the module’s routes and pages are on */
        webhooks: boolean
      }
      links: {
        /** @description The API reference */
        docs: string
        support: string | null
        privacy: string | null
        terms: string | null
      }
    }
    SignUpRequest: {
      /**
       * Format: email
       * @example ada@example.com
       */
      email: string
      /** @description At least 10 characters */
      password: string
      name: string
    }
    User: {
      id: string
      email: string | null
      name: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
    }
    Session: {
      /** @description Session token: send as Authorization: Bearer <token> */
      token: string
      /**
       * Format: date-time
       * @description When the session ends unless used (each use extends it, up to 7 days in all)
       */
      expiresAt: string
      user: components['schemas']['User']
      activeOrgId: string | null
    }
    /** @description RFC 9457 problem details */
    Problem: {
      /**
       * Format: uri
       * @description A page about the code: {PUBLIC_URL}/docs/errors/{code}
       */
      type: string
      /** @description The code’s title */
      title: string
      /** @description The HTTP status */
      status: number
      /** @description What was wrong with this request, for people */
      detail: string
      /**
       * @description Stable and machine-readable
       * @enum {string}
       */
      code:
        | 'invalid_request'
        | 'parameter_missing'
        | 'parameter_invalid'
        | 'parameter_unknown'
        | 'invalid_cursor'
        | 'invalid_json'
        | 'authentication_required'
        | 'invalid_token'
        | 'insufficient_scope'
        | 'forbidden'
        | 'production_access_pending'
        | 'csrf_failed'
        | 'resource_missing'
        | 'module_disabled'
        | 'method_not_allowed'
        | 'request_timeout'
        | 'conflict'
        | 'idempotency_key_in_use'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'wrong_region'
        | 'idempotency_key_reused'
        | 'splits_invalid'
        | 'balance_below_minimum'
        | 'nothing_to_pay'
        | 'unprocessable'
        | 'invalid_state'
        | 'rate_limited'
        | 'headers_too_large'
        | 'internal_error'
        | 'service_unavailable'
      /** @description The parameter at fault (the first, when several are) */
      param?: string
      /** @description The request’s id, as in X-Request-Id; quote it to support */
      requestId: string
      /** @description Every parameter at fault */
      errors?: {
        param: string
        code: string
        message?: string
      }[]
      /** @description insufficient_scope: the scope the operation needs */
      scope?: string
      /** @description wrong_region: the base URL of the org’s region */
      baseUrl?: string
    } & {
      [key: string]: unknown
    }
    LogInRequest: {
      email: string
      password: string
    }
    /** @description A session held in an HttpOnly cookie for the web app: the token is in Set-Cookie only, never in the body. */
    CookieSession: {
      /**
       * Format: date-time
       * @description When the session ends unless used (each use extends it, up to 7 days in all)
       */
      expiresAt: string
      user: components['schemas']['User']
      activeOrgId: string | null
    }
    Membership: {
      orgId: string
      name: string
      environment: 'sandbox' | 'production'
      region: string
      role: 'owner' | 'admin' | 'finance' | 'editor' | 'viewer'
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      joinedAt: string
    }
    Me: {
      user: components['schemas']['User']
      memberships: components['schemas']['Membership'][]
      activeOrgId: string | null
    }
    CreateOrgRequest: {
      name: string
      environment?: 'sandbox' | 'production'
      region?: 'us-east' | 'eu-west' | 'au-east'
    }
    /** @description The org created, and the session’s active org, which creating it changed */
    CreatedOrg: {
      id: string
      name: string
      environment: 'sandbox' | 'production'
      region: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      createdBy: string
      /** @description The session’s active org after this request: the new org, which /api routes now act on (switch back with POST /api/session/active-org) */
      activeOrgId: string | null
    }
    SetActiveOrgRequest: {
      orgId: string
    }
    Member: {
      userId: string
      name: string
      email: string | null
      role: 'owner' | 'admin' | 'finance' | 'editor' | 'viewer'
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      joinedAt: string
    }
    Pagination: {
      /** @description Pass as ?cursor= for the next page */
      cursor: string | null
      hasMore: boolean
    }
    /** @description A page of records */
    MemberList: {
      data: components['schemas']['Member'][]
      pagination: components['schemas']['Pagination']
    }
    ChangeMemberRoleRequest: {
      role: 'owner' | 'admin' | 'finance' | 'editor' | 'viewer'
    }
    InviteMemberRequest: {
      /**
       * Format: email
       * @example ada@example.com
       */
      email: string
      role: 'owner' | 'admin' | 'finance' | 'editor' | 'viewer'
    }
    Invitation: {
      id: string
      email: string
      role: 'owner' | 'admin' | 'finance' | 'editor' | 'viewer'
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      expiresAt: string
      /** @description Shown once, in the response that created the invitation (an idempotent replay omits it); the invitation link carries it */
      token?: string
    }
    PendingInvitation: {
      id: string
      email: string
      role: 'owner' | 'admin' | 'finance' | 'editor' | 'viewer'
      invitedBy: {
        userId: string
        name: string
        email: string | null
      }
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      sentAt: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      expiresAt: string
      /** @description Past expiresAt: send it again to renew the link for 7 days */
      expired: boolean
    }
    /** @description Invitations not accepted or revoked, newest first */
    PendingInvitationList: {
      data: components['schemas']['PendingInvitation'][]
      pagination: components['schemas']['Pagination']
    }
    InvitationPreviewRequest: {
      token: string
    }
    InvitationPreview: {
      orgName: string
      /** @description Who the invitation is for: accept it signed in with this email */
      email: string
      role: 'owner' | 'admin' | 'finance' | 'editor' | 'viewer'
      inviter: {
        name: string
        email: string | null
      }
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      expiresAt: string
      /** @description pending: it can be accepted */
      status: 'pending' | 'accepted' | 'expired' | 'revoked'
    }
    AcceptInvitationRequest: {
      token: string
    }
    MembershipRecord: {
      orgId: string
      userId: string
      role: 'owner' | 'admin' | 'finance' | 'editor' | 'viewer'
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      joinedAt: string
    }
    PasswordResetRequest: {
      /**
       * Format: email
       * @example ada@example.com
       */
      email: string
    }
    PasswordResetAccepted: {
      message: string
    }
    PasswordResetConfirmRequest: {
      /** @description From the link in the email */
      token: string
      /** @description The new password: at least 10 characters */
      password: string
    }
    EmailKind: {
      /**
       * @description An email kind
       * @enum {string}
       */
      kind:
        | 'invitation'
        | 'password_reset'
        | 'password_changed'
        | 'payout_status'
        | 'partner_review'
        | 'webhook_disabled'
        | 'operator_invite'
      description: string
      /** @description Security emails always go; the others follow each person’s choice */
      security: boolean
      /** @description Whether a person gets it before choosing */
      receivedByDefault: boolean
      /** @description What the kind’s templates may use (brand.name and brand.url too) */
      variables: {
        /** @description As a template writes it: {{ org.name }} */
        path: string
        description: string
        /** @description An example value */
        sample: string
      }[]
    }
    EmailKindList: {
      data: components['schemas']['EmailKind'][]
    }
    EmailPreferences: {
      /** @description Payouts of your orgs moving (owners and admins) */
      payout_status: boolean
      /** @description A webhook endpoint of your orgs disabled (owners and admins) */
      webhook_disabled: boolean
      /** @description Your partner’s review decisions */
      partner_review: boolean
    }
    EmailPreferencesBody: {
      /** @description Payouts of your orgs moving (owners and admins) */
      payout_status?: boolean
      /** @description A webhook endpoint of your orgs disabled (owners and admins) */
      webhook_disabled?: boolean
      /** @description Your partner’s review decisions */
      partner_review?: boolean
    }
    WebhookKindList: {
      data: {
        /** @description What an endpoint subscribes to (an org event action, audit.emitted or *) */
        kind: string
        /** @description The object it is about: the part before the dot (every event: audit.emitted and *) */
        group: string
        description: string
      }[]
    }
    /** @description One entry of the org audit log, hash-chained to the previous one */
    OrgEvent: {
      id: string
      orgId: string
      /** @example catalog.created */
      action: string
      userId: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      hash: string
      sequence: number
      resource: {
        type: string
        id: string
      } | null
      data: unknown
    }
    /** @description Who an event’s userId is */
    AuditActor: {
      id: string
      kind: 'person' | 'service' | 'system'
      /** @description A person’s name as last set (kept after they leave the org), or the client’s */
      name: string
      /** @description A person’s email; null for a client or the system */
      email: string | null
    }
    /** @description A page of the audit log, with who did each thing */
    AuditLogPage: {
      data: components['schemas']['OrgEvent'][]
      pagination: components['schemas']['Pagination']
      /** @description Every userId of this page, once */
      actors: components['schemas']['AuditActor'][]
    }
    /** @description One org event with the hash it is chained to: enough to recompute its own hash */
    OrgEventDetail: {
      id: string
      orgId: string
      /** @example catalog.created */
      action: string
      userId: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      hash: string
      sequence: number
      resource: {
        type: string
        id: string
      } | null
      data: unknown
      /** @description The hash of the event before it (sequence - 1); for sequence 1, sha256: and 64 zeros */
      previousHash: string
    }
    CreateOAuthClientRequest: {
      name: string
      /** @description The scopes tokens of this client may be granted */
      scopes: (
        | 'events:read'
        | 'members:read'
        | 'catalog:read'
        | 'catalog:write'
        | 'creators:read'
        | 'creators:write'
        | 'revenue:read'
        | 'revenue:write'
        | 'payouts:read'
        | 'payouts:write'
        | 'ticketing:read'
        | 'ticketing:write'
        | 'webhooks:read'
        | 'webhooks:write'
      )[]
      /**
       * @description Rate tier: sandbox orgs get api_partner_sandbox; production orgs api_partner_production or platform_integrator (custom limits)
       * @enum {string}
       */
      tier?: 'api_partner_sandbox' | 'api_partner_production' | 'platform_integrator'
      /** @description Custom limits: platform_integrator clients only, and required for them */
      rateLimit?: {
        /** @description Requests per minute (the refill rate) */
        perMinute: number
        /** @description Bucket capacity */
        burst: number
      }
    }
    /** @description The client with its secret, shown this once */
    OAuthClientWithSecret: {
      /** @example cli_01JD2YB6X8Q0W3M5N7P9R1T3V5 */
      id: string
      /** @description The org the client acts in: the {orgId} of its /v1 paths */
      orgId: string
      name: string
      scopes: (
        | 'events:read'
        | 'members:read'
        | 'catalog:read'
        | 'catalog:write'
        | 'creators:read'
        | 'creators:write'
        | 'revenue:read'
        | 'revenue:write'
        | 'payouts:read'
        | 'payouts:write'
        | 'ticketing:read'
        | 'ticketing:write'
        | 'webhooks:read'
        | 'webhooks:write'
      )[]
      /**
       * @description Rate tier: sandbox orgs get api_partner_sandbox; production orgs api_partner_production or platform_integrator (custom limits)
       * @enum {string}
       */
      tier: 'api_partner_sandbox' | 'api_partner_production' | 'platform_integrator'
      rateLimit: {
        perMinute: number
        burst: number
      }
      environment: 'sandbox' | 'production'
      status: 'active' | 'revoked'
      /** @description The service user this client acts as (the userId of the org events it causes) */
      userId: string
      /**
       * @description The secret’s prefix and last four characters, to recognise it
       * @example cs_test_…x7Qa
       */
      secretHint: string
      secretRotatedAt: string | null
      /** @description Until then the secret before the last rotation still works */
      previousSecretExpiresAt: string | null
      /** @description When the client’s credentials were last used: its latest /oauth/token or /v1 request that authenticated (null until then; written with the request log, within about a second) */
      lastUsedAt: string | null
      /**
       * @description The address that request came from
       * @example 203.0.113.7
       */
      lastUsedFrom: string | null
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      createdBy: string
      revokedAt: string | null
      /** @description Shown once: store it now; only its hash is kept */
      secret: string
    }
    /**
     * @description An OAuth client (its secret is never shown again)
     * @example {
     *       "id": "cli_01JD2YB6X8Q0W3M5N7P9R1T3V5",
     *       "orgId": "org_01JD2YB6X8Q0W3M5N7P9R1T3V4",
     *       "name": "Royalty dashboard",
     *       "scopes": [
     *         "events:read",
     *         "members:read"
     *       ],
     *       "tier": "api_partner_sandbox",
     *       "rateLimit": {
     *         "perMinute": 60,
     *         "burst": 120
     *       },
     *       "environment": "sandbox",
     *       "status": "active",
     *       "userId": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V6",
     *       "secretHint": "cs_test_…x7Qa",
     *       "secretRotatedAt": null,
     *       "previousSecretExpiresAt": null,
     *       "lastUsedAt": null,
     *       "lastUsedFrom": null,
     *       "createdAt": "2026-11-22T10:15:30.123Z",
     *       "createdBy": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V7",
     *       "revokedAt": null
     *     }
     */
    OAuthClient: {
      /** @example cli_01JD2YB6X8Q0W3M5N7P9R1T3V5 */
      id: string
      /** @description The org the client acts in: the {orgId} of its /v1 paths */
      orgId: string
      name: string
      scopes: (
        | 'events:read'
        | 'members:read'
        | 'catalog:read'
        | 'catalog:write'
        | 'creators:read'
        | 'creators:write'
        | 'revenue:read'
        | 'revenue:write'
        | 'payouts:read'
        | 'payouts:write'
        | 'ticketing:read'
        | 'ticketing:write'
        | 'webhooks:read'
        | 'webhooks:write'
      )[]
      /**
       * @description Rate tier: sandbox orgs get api_partner_sandbox; production orgs api_partner_production or platform_integrator (custom limits)
       * @enum {string}
       */
      tier: 'api_partner_sandbox' | 'api_partner_production' | 'platform_integrator'
      rateLimit: {
        perMinute: number
        burst: number
      }
      environment: 'sandbox' | 'production'
      status: 'active' | 'revoked'
      /** @description The service user this client acts as (the userId of the org events it causes) */
      userId: string
      /**
       * @description The secret’s prefix and last four characters, to recognise it
       * @example cs_test_…x7Qa
       */
      secretHint: string
      secretRotatedAt: string | null
      /** @description Until then the secret before the last rotation still works */
      previousSecretExpiresAt: string | null
      /** @description When the client’s credentials were last used: its latest /oauth/token or /v1 request that authenticated (null until then; written with the request log, within about a second) */
      lastUsedAt: string | null
      /**
       * @description The address that request came from
       * @example 203.0.113.7
       */
      lastUsedFrom: string | null
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      createdBy: string
      revokedAt: string | null
    }
    /** @description OAuth clients of the active org, newest first */
    OAuthClientList: {
      data: components['schemas']['OAuthClient'][]
      pagination: components['schemas']['Pagination']
    }
    /**
     * @description A request made with the client’s credentials (no bodies, headers or secrets are kept)
     * @example {
     *       "at": "2026-11-22T10:15:30.123Z",
     *       "method": "GET",
     *       "path": "/v1/orgs/{orgId}/events",
     *       "status": 200,
     *       "latencyMs": 4,
     *       "requestId": "req_01JD2YB6X8Q0W3M5N7P9R1T3V8",
     *       "address": "203.0.113.7",
     *       "errorCode": null,
     *       "errorDetail": null
     *     }
     */
    OAuthClientRequest: {
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      at: string
      /** @example GET */
      method: string
      /**
       * @description The route pattern, never the path as sent
       * @example /v1/orgs/{orgId}/events
       */
      path: string
      /** @example 200 */
      status: number
      /**
       * @description Time to answer, in whole milliseconds
       * @example 4
       */
      latencyMs: number
      /** @description The X-Request-Id of the answer */
      requestId: string
      /**
       * @description The address the request came from
       * @example 203.0.113.7
       */
      address: string
      /**
       * @description A refused request: the stable code its answer gave (problem+json code, or the OAuth error)
       * @example null
       */
      errorCode: string | null
      /**
       * @description A refused request: the detail its answer gave (first 500 characters)
       * @example null
       */
      errorDetail: string | null
    }
    /** @description Requests made with the client’s credentials in the last 30 days, newest first */
    OAuthClientRequestList: {
      data: components['schemas']['OAuthClientRequest'][]
      pagination: components['schemas']['Pagination']
    }
    /** @description application/x-www-form-urlencoded; credentials in the body or in HTTP Basic, not both */
    AccessTokenRequest: {
      /** @description Required: client_credentials */
      grant_type?: string
      /** @description Required unless sent with HTTP Basic */
      client_id?: string
      /** @description Required unless sent with HTTP Basic */
      client_secret?: string
      /** @description Required: space-separated scopes, each allowed for the client */
      scope?: string
    } & {
      [key: string]: unknown
    }
    /** @description An access token (no refresh token: ask again when it expires) */
    AccessToken: {
      access_token: string
      /** @enum {string} */
      token_type: 'Bearer'
      /** @description Seconds: 3600 */
      expires_in: number
      /** @description The granted scopes, space-separated */
      scope: string
      /** @description The org the token acts in: the {orgId} of every /v1/orgs/{orgId}/... route */
      org_id: string
    }
    /** @description RFC 6749 section 5.2 error (this route only; every other route answers problem+json) */
    OAuthError: {
      /** @enum {string} */
      error:
        | 'invalid_request'
        | 'invalid_client'
        | 'invalid_grant'
        | 'unauthorized_client'
        | 'unsupported_grant_type'
        | 'invalid_scope'
        | 'rate_limited'
        | 'server_error'
        | 'temporarily_unavailable'
        | 'wrong_region'
      error_description: string
      /** @description wrong_region: the region the client belongs to */
      region?: string
      /** @description wrong_region: the base URL of that region */
      baseUrl?: string
    }
    /** @description OAuth 2.0 authorization server metadata (RFC 8414) */
    AuthorizationServerMetadata: {
      /**
       * Format: uri
       * @description This deployment’s base address (PUBLIC_URL)
       */
      issuer: string
      /** Format: uri */
      token_endpoint: string
      grant_types_supported: 'client_credentials'[]
      token_endpoint_auth_methods_supported: ('client_secret_post' | 'client_secret_basic')[]
      scopes_supported: string[]
      /** @description None: there is no authorization endpoint (client credentials only) */
      response_types_supported: string[]
      /** Format: uri */
      service_documentation: string
    }
    Org: {
      id: string
      name: string
      environment: 'sandbox' | 'production'
      region: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      createdBy: string
    }
    /** @description The orgs the token acts in */
    OrgList: {
      data: components['schemas']['Org'][]
    }
    /** @description Org events, oldest first; the cursor is always returned */
    OrgEventList: {
      data: components['schemas']['OrgEvent'][]
      pagination: components['schemas']['Pagination']
    }
    CreatorRole:
      'artist' | 'featured_artist' | 'composer' | 'lyricist' | 'producer' | 'arranger' | 'publisher' | 'label'
    /** @description A creator: an artist, songwriter, producer, publisher or label who is paid from revenue */
    Creator: {
      id: string
      name: string
      legalName: string | null
      kind: 'person' | 'group' | 'company'
      roles: components['schemas']['CreatorRole'][]
      email: string | null
      country: string | null
      ipi: string | null
      isni: string | null
      payoutCurrency: string
      minimumPayout: string
      openingBalance: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      createdBy: string
    }
    /** @description Creators, newest first */
    CreatorList: {
      data: components['schemas']['Creator'][]
      pagination: components['schemas']['Pagination']
    }
    CreateCreatorRequest: {
      name: string
      legalName?: string
      kind: 'person' | 'group' | 'company'
      roles: components['schemas']['CreatorRole'][]
      /** Format: email */
      email?: string
      /** @description ISO 3166-1 alpha-2 */
      country?: string
      /** @description IPI name number: 9 or 11 digits */
      ipi?: string
      /** @description ISNI: 16 characters, the last a check character (0-9 or X); spaces allowed */
      isni?: string
      /**
       * @description ISO 4217 alphabetic code, e.g. EUR
       * @example EUR
       */
      payoutCurrency: string
      /**
       * @description Smallest payout, in payoutCurrency, at most its minor unit of places; default "0"
       * @example 50.00
       */
      minimumPayout?: string
      /**
       * @description Balance owed to the creator before any revenue, in payoutCurrency, up to 6 places; negative = an advance still to recoup; default "0"
       * @example -500.00
       */
      openingBalance?: string
    }
    CatalogKind: 'work' | 'recording' | 'release'
    Split: {
      creatorId: string
      role: components['schemas']['CreatorRole']
      /** @description Basis points: 10000 = 100% */
      shareBps: number
    }
    /** @description A work, recording or release with its splits */
    CatalogEntry: {
      id: string
      kind: components['schemas']['CatalogKind']
      title: string
      versionTitle: string | null
      displayArtist: string | null
      identifiers: {
        isrc: string | null
        iswc: string | null
        upc: string | null
      }
      releaseDate: string | null
      territories: string[]
      workId: string | null
      splits: components['schemas']['Split'][]
      supersedes: string | null
      supersededBy: string | null
      status: 'active' | 'superseded'
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      createdBy: string
    }
    /** @description Catalog entries, newest first */
    CatalogEntryList: {
      data: components['schemas']['CatalogEntry'][]
      pagination: components['schemas']['Pagination']
    }
    Identifiers: {
      /**
       * @description Recordings only; CC-XXX-YY-NNNNN, hyphens optional, stored as 12 upper-case chars
       * @example US-RC1-76-07839
       */
      isrc?: string
      /**
       * @description Works only; T-DDD.DDD.DDD-C with a valid check digit
       * @example T-034.524.680-1
       */
      iswc?: string
      /**
       * @description Releases only; UPC-A, EAN-13 or GTIN-14 with a valid check digit
       * @example 036000291452
       */
      upc?: string
    }
    CreateCatalogEntryRequest: {
      kind: components['schemas']['CatalogKind']
      title: string
      /** @example Radio Edit */
      versionTitle?: string
      displayArtist?: string
      identifiers?: components['schemas']['Identifiers']
      /**
       * Format: date
       * @description YYYY-MM-DD
       */
      releaseDate?: string
      /** @description Default ["WORLD"] */
      territories?: string[]
      /** @description Recordings only: the underlying work (a work entry of this org) */
      workId?: string
      /** @description Creators of this org; shareBps sum to exactly 10000 */
      splits: components['schemas']['Split'][]
      /** @description The active entry this one corrects; it then shows status "superseded" */
      supersedes?: string
    }
    /** @description A ticketed event: a concert or show with its venue and tickets */
    TicketedEvent: {
      id: string
      name: string
      venue: {
        name: string
        city: string | null
        country: string
      }
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      startsAt: string
      endsAt: string | null
      timezone: string
      currency: string
      capacity: number
      ticketTypes: {
        name: string
        price: string
        quantity: number
      }[]
      performerIds: string[]
      catalogIds: string[]
      status: 'draft' | 'published' | 'cancelled'
      /** @description From the current time: before startsAt upcoming, until endsAt (or startsAt + 1 day without one) ongoing, then ended */
      lifecycle: 'upcoming' | 'ongoing' | 'ended'
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      createdBy: string
    }
    /** @description Ticketed events, newest first */
    TicketedEventList: {
      data: components['schemas']['TicketedEvent'][]
      pagination: components['schemas']['Pagination']
    }
    TicketType: {
      name: string
      /**
       * @description Price per ticket in the event currency, at most its minor unit of places; "0" for free tickets
       * @example 39.00
       */
      price: string
      quantity: number
    }
    CreateTicketedEventRequest: {
      name: string
      venue: {
        name: string
        city?: string
        /** @description ISO 3166-1 alpha-2 */
        country: string
      }
      /** Format: date-time */
      startsAt: string
      /**
       * Format: date-time
       * @description After startsAt; without it the event is taken to last one day
       */
      endsAt?: string
      /**
       * @description IANA time zone of the venue, e.g. Europe/Berlin
       * @example Europe/Berlin
       */
      timezone: string
      /**
       * @description ISO 4217 alphabetic code, e.g. EUR
       * @example EUR
       */
      currency: string
      capacity: number
      /** @description Quantities sum to at most capacity */
      ticketTypes: components['schemas']['TicketType'][]
      /** @description Creators of this org */
      performerIds?: string[]
      /** @description Work entries of this org performed at the event */
      catalogIds?: string[]
      /** @description Default draft */
      status?: 'draft' | 'published'
    }
    RevenueType: 'stream' | 'download' | 'physical' | 'sync' | 'performance' | 'mechanical' | 'ticket_sale' | 'other'
    Allocation: {
      creatorId: string
      /** @description Exact to 6 places; allocations sum exactly to the amount */
      amount: string
    }
    /** @description An immutable revenue entry with its allocation to creators */
    RevenueEntry: {
      id: string
      catalogId: string
      eventId: string | null
      source: string
      type: components['schemas']['RevenueType']
      /**
       * Format: date
       * @description YYYY-MM-DD
       */
      periodStart: string
      /**
       * Format: date
       * @description YYYY-MM-DD
       */
      periodEnd: string
      territory: string
      units: number
      amount: string
      currency: string
      statementRef: string | null
      lineRef: string | null
      reverses: string | null
      batchId: string | null
      allocations: components['schemas']['Allocation'][]
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      createdBy: string
    }
    /** @description Revenue entries, newest first */
    RevenueEntryList: {
      data: components['schemas']['RevenueEntry'][]
      pagination: components['schemas']['Pagination']
    }
    CreateRevenueEntryRequest: {
      catalogId?: string
      /** @description Instead of catalogId: the active recording with this ISRC */
      isrc?: string
      /** @description Instead of catalogId: the active work with this ISWC */
      iswc?: string
      /** @description Instead of catalogId: the active release with this UPC/EAN */
      upc?: string
      /** @description Ticket sales only: the ticketed event */
      eventId?: string
      /**
       * @description Where the money comes from, e.g. the DSP
       * @example Spotify
       */
      source: string
      type: components['schemas']['RevenueType']
      /**
       * Format: date
       * @description YYYY-MM-DD
       */
      periodStart: string
      /**
       * Format: date
       * @description YYYY-MM-DD
       */
      periodEnd: string
      /** @description ISO 3166-1 alpha-2, or WORLD */
      territory: string
      /** @description Streams, copies or tickets; negative for returns */
      units: number
      /**
       * @description Up to 6 decimal places, not zero; negative for returns and corrections
       * @example 0.004217
       */
      amount: string
      /**
       * @description ISO 4217 alphabetic code, e.g. EUR
       * @example EUR
       */
      currency: string
      /** @description The statement this line comes from */
      statementRef?: string
      /** @description The line within the statement; with statementRef unique per source (a re-sent line is 409) */
      lineRef?: string
      /** @description The entry this one reverses: every field mirrored, units and amount negated; once */
      reverses?: string
    }
    /** @description An imported revenue line’s RFC 6962 inclusion proof in its batch event’s root */
    RevenueInclusionProof: {
      revenueId: string
      batchId: string
      /** @description The batch’s revenue.imported event */
      eventId: string
      /** @description The line’s place among the batch’s lines, in id order (0-based) */
      leafIndex: number
      /** @description The batch’s line count */
      treeSize: number
      /** @description The batch event’s data.root (hex) */
      root: string
      /** @description RFC 9162 inclusion proof: sibling hashes from the leaf up (hex) */
      auditPath: string[]
      /** @description The exact text hashed as the leaf: SHA-256(0x00 || UTF-8 bytes of this text), the line’s canonical JSON */
      leaf: string
    }
    /** @description A DSP statement as CSV: a header line naming the columns isrc, territory, period_start, period_end, units, amount, currency, statement_ref and line_ref (type and source optional, in any order), then one revenue line per line */
    RevenueStatementCsv: string
    /** @description What a statement import did */
    RevenueImportReport: {
      source: string | null
      /** @description Lines read (the header and empty lines not counted) */
      lines: number
      imported: number
      /** @description Lines recorded already (a run before, or earlier in the statement) */
      skipped: number
      rejected: number
      /** @description Bytes of the statement read */
      bytes: number
      /** @description The first 100 rejected lines by line number (the header is line 1); all are counted in rejected */
      rejections: {
        line: number
        reason: string
      }[]
      /** @description The first 100 skipped lines by line number; all are counted in skipped */
      skippedLines: {
        line: number
        statementRef: string
        lineRef: string
      }[]
      /** @description Each batch written, with its revenue.imported event (filter GET /api/revenue by batchId) */
      batches: {
        batchId: string
        lineCount: number
      }[]
    }
    PayoutStatus: 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled'
    /** @description Always amount + carriedForward = openingBalance + earnings */
    PayoutStatement: {
      /** @description Balance carried into this statement: the creator’s opening balance for the first, then what earlier statements carried forward */
      openingBalance: string
      /** @description Sum of the allocations included, before recoupment */
      earnings: string
      /** @description Advance recouped from these earnings: min(earnings, max(0, -openingBalance)), never negative */
      recouped: string
      /** @description Remainder below the minor unit (or an unrecouped balance) carried to the next statement */
      carriedForward: string
      /** @description Number of allocations included */
      entries: number
      periodStart: string | null
      periodEnd: string | null
    }
    /** @description A payout to a creator, computed from their unpaid allocations */
    Payout: {
      id: string
      creatorId: string
      /** @description In the currency’s minor unit */
      amount: string
      currency: string
      status: components['schemas']['PayoutStatus']
      statement: components['schemas']['PayoutStatement']
      method: 'manual' | 'sandbox'
      failureCode: string | null
      failureMessage: string | null
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      paidAt: string | null
      batchId: string | null
    }
    /** @description Payouts, newest first */
    PayoutList: {
      data: components['schemas']['Payout'][]
      pagination: components['schemas']['Pagination']
    }
    CreatePayoutRequest: {
      creatorId: string
      /**
       * @description ISO 4217 alphabetic code, e.g. EUR
       * @example EUR
       */
      currency?: string
      /**
       * Format: date
       * @description Include revenue whose period ends on or before this date (default: all)
       */
      through?: string
    }
    /** @description What a creator would be paid in one currency if a payout were created now */
    PayoutBalance: {
      creatorId: string
      currency: string
      /** @description Carried into the next statement: the creator’s opening balance (in their payout currency) plus what their live payouts carried forward */
      openingBalance: string
      /** @description Sum of the allocations no live payout holds (all periods) */
      earnings: string
      /** @description Number of those allocations */
      entries: number
      /** @description openingBalance + earnings, exact to 6 places */
      balance: string
      /** @description The balance rounded down to the currency’s minor unit, or zero when that is not positive */
      payable: string
      minimumPayout: string | null
      /** @description A payout created now (POST with this creator and currency) would pay `payable`: it is above zero and at least the minimum */
      payableNow: boolean
    }
    /** @description Balances per creator (in id order) and currency */
    PayoutBalanceList: {
      data: components['schemas']['PayoutBalance'][]
      pagination: components['schemas']['Pagination']
    }
    /** @description One allocation a payout’s statement includes (its earnings are their sum) */
    PayoutLine: {
      revenueId: string
      /** @description The creator’s allocation of the revenue entry, exact to 6 places */
      amount: string
      catalogId: string
      source: string
      type: string
      territory: string
      /** Format: date */
      periodStart: string
      /** Format: date */
      periodEnd: string
    }
    /** @description The statement’s allocations, in revenue id order */
    PayoutLineList: {
      data: components['schemas']['PayoutLine'][]
      pagination: components['schemas']['Pagination']
    }
    MarkPayoutFailedRequest: {
      /**
       * @description Machine-readable reason, default "manual"
       * @example account_closed
       */
      failureCode?: string
      failureMessage: string
    }
    /** @description A webhook endpoint registration */
    Webhook: {
      id: string
      /** Format: uri */
      url: string
      events: string[]
      status: 'enabled' | 'disabled'
      disabledReason: string | null
      previousSecretExpiresAt: string | null
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      createdBy: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      updatedAt: string
    }
    /** @description Webhook endpoints, newest first */
    WebhookList: {
      data: components['schemas']['Webhook'][]
      pagination: components['schemas']['Pagination']
    }
    CreateWebhookRequest: {
      /**
       * @description https URL that receives deliveries
       * @example https://example.com/hooks/oeuvre
       */
      url: string
      events: string[]
    }
    /** @description A webhook endpoint with its signing secret (shown once) */
    WebhookWithSecret: {
      id: string
      /** Format: uri */
      url: string
      events: string[]
      status: 'enabled' | 'disabled'
      disabledReason: string | null
      previousSecretExpiresAt: string | null
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      createdBy: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      updatedAt: string
      /** @description Shown only in the response that created or rotated it (an idempotent replay omits it): store it to verify deliveries */
      signingSecret?: string
    }
    WebhookAttempt: {
      attempt: number
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      at: string
      trigger: 'scheduled' | 'redelivery'
      status: 'succeeded' | 'failed' | 'blocked'
      httpStatus: number | null
      latencyMs: number
      /** @description The body sent: the first 4 KiB of the delivery payload (the same signed bytes on every attempt) */
      requestBody: string
      responseBody: string | null
      error: string | null
      address: string | null
    }
    /** @description One event sent to one endpoint, with every attempt */
    WebhookDelivery: {
      /** @description Also the X-Service-Delivery and webhook-id headers, the same on every retry */
      id: string
      webhookId: string
      eventId: string
      type: string
      status: 'pending' | 'succeeded' | 'failed' | 'blocked'
      attemptCount: number
      nextAttemptAt: string | null
      lastHttpStatus: number | null
      lastError: string | null
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      updatedAt: string
      finishedAt: string | null
      attempts: components['schemas']['WebhookAttempt'][]
    }
    /** @description Deliveries to this endpoint, newest first */
    WebhookDeliveryList: {
      data: components['schemas']['WebhookDelivery'][]
      pagination: components['schemas']['Pagination']
    }
    /** @description Failed deliveries created at or after this time are sent again */
    RedeliverFailedRequest: {
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      since: string
    }
    RedeliverFailed: {
      /** @description Failed deliveries queued again, each a new run of the schedule */
      redelivered: number
      /** @description True when more than 500 failed deliveries matched: call again for the rest */
      more: boolean
    }
    /** @description The public keys that sign seals (RFC 7517 JWKS, RFC 8037 OKP) */
    JsonWebKeySet: {
      keys: {
        /** @enum {string} */
        kty: 'OKP'
        /** @enum {string} */
        crv: 'Ed25519'
        x: string
        kid: string
        /** @enum {string} */
        use: 'sig'
        /** @enum {string} */
        alg: 'EdDSA'
        /** @description The region whose deployment signs with this key */
        region: string
      }[]
      /** @description The region this deployment serves */
      region: string
    }
    /** @description A signed checkpoint of the org event log (RFC 6962 Merkle tree head) */
    Seal: {
      id: string
      orgId: string
      /** @description The region whose deployment keeps the org and signed the seal */
      region: string
      /** @description The seal covers events 1..treeSize */
      treeSize: number
      /** @description 32 bytes, lowercase hex */
      rootHash: string
      /** @description oeuvre/<orgId>\n<treeSize>\n<base64 root>\n: the signed text */
      checkpoint: string
      /** @description Ed25519 over the UTF-8 checkpoint, base64 */
      signature: string
      /** @description kid of the key in /v1/evidence/keys */
      keyId: string
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
    }
    /** @description Seals, newest first */
    SealList: {
      data: components['schemas']['Seal'][]
      pagination: components['schemas']['Pagination']
    }
    /** @description Proof that the newer seal extends the older one (nothing was rewritten) */
    ConsistencyProof: {
      fromSealId: string
      toSealId: string
      fromSize: number
      toSize: number
      /** @description 32 bytes, lowercase hex */
      fromRoot: string
      /** @description 32 bytes, lowercase hex */
      toRoot: string
      /** @description RFC 9162 consistency proof */
      proof: string[]
    }
    /** @description RFC 6962 / RFC 9162 inclusion proof of one event in a seal */
    InclusionProof: {
      sealId: string
      eventId: string
      /** @description The event hash: the leaf is SHA-256(0x00 || its 32 bytes) */
      eventHash: string
      /** @description sequence - 1 */
      leafIndex: number
      treeSize: number
      /** @description 32 bytes, lowercase hex */
      rootHash: string
      /** @description RFC 9162 inclusion path, leaf to root */
      auditPath: string[]
    }
    PartnerSignUpRequest: {
      /**
       * Format: email
       * @example ada@example.com
       */
      email: string
      /** @description At least 10 characters */
      password: string
      name: string
      company: string
      /**
       * @description api_partner, white_label (its own deployment) or platform_integrator (custom limits, the SDK)
       * @enum {string}
       */
      tier: 'api_partner' | 'white_label' | 'platform_integrator'
      /** @enum {string} */
      region?: 'us-east' | 'eu-west' | 'au-east'
    }
    Partner: {
      /** @example prt_2JD2YB6X8Q0W3M5N7P9R1T3V5 */
      id: string
      company: string
      /**
       * @description api_partner, white_label (its own deployment) or platform_integrator (custom limits, the SDK)
       * @enum {string}
       */
      tier: 'api_partner' | 'white_label' | 'platform_integrator'
      /** @enum {string} */
      region: 'us-east' | 'eu-west' | 'au-east'
      /**
       * @description Where the partner is in the program
       * @enum {string}
       */
      status: 'sandbox' | 'in_review' | 'changes_requested' | 'live' | 'rejected' | 'suspended'
      /** @description The operator’s reason for the last change request, rejection or suspension */
      statusReason: string | null
      sandboxOrgId: string
      sandboxClientId: string
      onboarding: {
        steps: {
          /** @enum {string} */
          key: 'application' | 'agreement' | 'brand_and_domain' | 'provisioning' | 'integration_testing' | 'go_live'
          /** @enum {string} */
          status: 'pending' | 'waiting_review' | 'changes_requested' | 'done'
          /**
           * Format: date-time
           * @example 2026-11-22T10:15:30.123Z
           */
          completedAt?: string
          /**
           * Format: date
           * @description provisioning: three business days after the request
           */
          expectedReadyAt?: string
          /** @description What the step is waiting for */
          detail?: string
          /** @description integration_testing: when the sandbox credentials did each for real */
          checks?: {
            tokenIssuedAt: string | null
            feedReadAt: string | null
            webhookDeliveredAt: string | null
          }
        }[]
        currentlyDue: (
          'application' | 'agreement' | 'brand_and_domain' | 'provisioning' | 'integration_testing' | 'go_live'
        )[]
      }
      /** @description While in review: the day an operator answers by (three business days after the request) */
      reviewExpectedBy: string | null
      /** @description Every version of the application, the newest first (one partner’s answers; not in lists) */
      applications?: {
        version: number
        website: string
        useCase: string
        expectedMonthlyRequests: number
        /**
         * Format: date-time
         * @example 2026-11-22T10:15:30.123Z
         */
        submittedAt: string
        submittedBy: string
      }[]
      limits: {
        sandbox: {
          perMinute: number
          burst: number
        }
        /** @description Limits of production clients (platform integrators: set by the operator at approval) */
        production: {
          perMinute: number
          burst: number
        } | null
      }
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
    }
    PartnerSignUp: {
      /** @description Session token: send as Authorization: Bearer <token> */
      token: string
      /**
       * Format: date-time
       * @description When the session ends unless used (each use extends it, up to 7 days in all)
       */
      expiresAt: string
      user: components['schemas']['User']
      activeOrgId: string | null
      partner: components['schemas']['Partner']
      sandboxClient: {
        id: string
        /** @description Shown once */
        secret: string
        scopes: (
          | 'events:read'
          | 'members:read'
          | 'catalog:read'
          | 'catalog:write'
          | 'creators:read'
          | 'creators:write'
          | 'revenue:read'
          | 'revenue:write'
          | 'payouts:read'
          | 'payouts:write'
          | 'ticketing:read'
          | 'ticketing:write'
          | 'webhooks:read'
          | 'webhooks:write'
        )[]
        /** @enum {string} */
        tier: 'api_partner_sandbox'
      }
    }
    PartnerCookieSignUp: {
      /**
       * Format: date-time
       * @description When the session ends unless used (each use extends it, up to 7 days in all)
       */
      expiresAt: string
      user: components['schemas']['User']
      activeOrgId: string | null
      partner: components['schemas']['Partner']
      sandboxClient: {
        id: string
        /** @description Shown once */
        secret: string
        scopes: (
          | 'events:read'
          | 'members:read'
          | 'catalog:read'
          | 'catalog:write'
          | 'creators:read'
          | 'creators:write'
          | 'revenue:read'
          | 'revenue:write'
          | 'payouts:read'
          | 'payouts:write'
          | 'ticketing:read'
          | 'ticketing:write'
          | 'webhooks:read'
          | 'webhooks:write'
        )[]
        /** @enum {string} */
        tier: 'api_partner_sandbox'
      }
    }
    PartnerApplyRequest: {
      company: string
      /**
       * @description api_partner, white_label (its own deployment) or platform_integrator (custom limits, the SDK)
       * @enum {string}
       */
      tier: 'api_partner' | 'white_label' | 'platform_integrator'
      /** @enum {string} */
      region?: 'us-east' | 'eu-west' | 'au-east'
    }
    PartnerApply: {
      user: components['schemas']['User']
      /** @description The new sandbox org, now the session’s active org */
      activeOrgId: string
      partner: components['schemas']['Partner']
      sandboxClient: {
        id: string
        /** @description Shown once */
        secret: string
        scopes: (
          | 'events:read'
          | 'members:read'
          | 'catalog:read'
          | 'catalog:write'
          | 'creators:read'
          | 'creators:write'
          | 'revenue:read'
          | 'revenue:write'
          | 'payouts:read'
          | 'payouts:write'
          | 'ticketing:read'
          | 'ticketing:write'
          | 'webhooks:read'
          | 'webhooks:write'
        )[]
        /** @enum {string} */
        tier: 'api_partner_sandbox'
      }
    }
    PartnerApplication: {
      /** Format: uri */
      website: string
      useCase: string
      expectedMonthlyRequests: number
    }
    PartnerAgreement: {
      version: string
      text: string
      /** @description SHA-256 of the text (lowercase hex): what signing records */
      sha256: string
    }
    SignPartnerAgreementRequest: {
      version: string
      signerName: string
      /** @enum {boolean} */
      accepted: true
    }
    PartnerReviewRequest: {
      id: string
      /** @example prt_2JD2YB6X8Q0W3M5N7P9R1T3V5 */
      partnerId: string
      status: 'open' | 'approved' | 'changes_requested' | 'rejected'
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      requestedAt: string
      requestedBy: string
      decidedAt: string | null
      decidedBy: string | null
      reason: string | null
    }
    /** @description A page of records */
    PartnerList: {
      data: components['schemas']['Partner'][]
      pagination: components['schemas']['Pagination']
    }
    OperatorPartner: {
      /** @example prt_2JD2YB6X8Q0W3M5N7P9R1T3V5 */
      id: string
      company: string
      /**
       * @description api_partner, white_label (its own deployment) or platform_integrator (custom limits, the SDK)
       * @enum {string}
       */
      tier: 'api_partner' | 'white_label' | 'platform_integrator'
      /** @enum {string} */
      region: 'us-east' | 'eu-west' | 'au-east'
      /**
       * @description Where the partner is in the program
       * @enum {string}
       */
      status: 'sandbox' | 'in_review' | 'changes_requested' | 'live' | 'rejected' | 'suspended'
      /** @description The operator’s reason for the last change request, rejection or suspension */
      statusReason: string | null
      sandboxOrgId: string
      sandboxClientId: string
      onboarding: {
        steps: {
          /** @enum {string} */
          key: 'application' | 'agreement' | 'brand_and_domain' | 'provisioning' | 'integration_testing' | 'go_live'
          /** @enum {string} */
          status: 'pending' | 'waiting_review' | 'changes_requested' | 'done'
          /**
           * Format: date-time
           * @example 2026-11-22T10:15:30.123Z
           */
          completedAt?: string
          /**
           * Format: date
           * @description provisioning: three business days after the request
           */
          expectedReadyAt?: string
          /** @description What the step is waiting for */
          detail?: string
          /** @description integration_testing: when the sandbox credentials did each for real */
          checks?: {
            tokenIssuedAt: string | null
            feedReadAt: string | null
            webhookDeliveredAt: string | null
          }
        }[]
        currentlyDue: (
          'application' | 'agreement' | 'brand_and_domain' | 'provisioning' | 'integration_testing' | 'go_live'
        )[]
      }
      /** @description While in review: the day an operator answers by (three business days after the request) */
      reviewExpectedBy: string | null
      /** @description Every version of the application, the newest first (one partner’s answers; not in lists) */
      applications?: {
        version: number
        website: string
        useCase: string
        expectedMonthlyRequests: number
        /**
         * Format: date-time
         * @example 2026-11-22T10:15:30.123Z
         */
        submittedAt: string
        submittedBy: string
      }[]
      limits: {
        sandbox: {
          perMinute: number
          burst: number
        }
        /** @description Limits of production clients (platform integrators: set by the operator at approval) */
        production: {
          perMinute: number
          burst: number
        } | null
      }
      /**
       * Format: date-time
       * @example 2026-11-22T10:15:30.123Z
       */
      createdAt: string
      user: {
        id: string
        email: string | null
        name: string
      }
      application: {
        website: string
        useCase: string
        expectedMonthlyRequests: number
        /**
         * Format: date-time
         * @example 2026-11-22T10:15:30.123Z
         */
        submittedAt: string
      } | null
      agreement: {
        version: string
        signerName: string
        userId: string
        /**
         * Format: date-time
         * @example 2026-11-22T10:15:30.123Z
         */
        signedAt: string
        address: string
        textSha256: string
      } | null
      reviewRequests: components['schemas']['PartnerReviewRequest'][]
    }
    /** @description Platform integrators: their production limits (both required) */
    ApprovePartnerRequest: {
      /** @description Requests per minute */
      rateLimit?: number
      burst?: number
    }
    OperatorReasonRequest: {
      reason: string
    }
  }
  responses: {
    /** @description `invalid_request`, `parameter_missing`, `parameter_invalid`, `parameter_unknown`, `invalid_cursor`, `invalid_json` (problem details; the codes are explained under /docs/errors/) */
    BadRequest: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/parameter_invalid",
         *       "title": "Invalid parameter",
         *       "status": 400,
         *       "detail": "A parameter has the wrong type, format, length or range; `param` names the first.",
         *       "code": "parameter_invalid",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `authentication_required`, `invalid_token` (problem details; the codes are explained under /docs/errors/) */
    Unauthorized: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        'WWW-Authenticate': components['headers']['WWW-Authenticate']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/invalid_token",
         *       "title": "Invalid token",
         *       "status": 401,
         *       "detail": "The bearer token is malformed, unknown, expired or revoked, or of the wrong kind for this surface.",
         *       "code": "invalid_token",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `insufficient_scope`, `forbidden`, `production_access_pending`, `csrf_failed` (problem details; the codes are explained under /docs/errors/) */
    Forbidden: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        'WWW-Authenticate': components['headers']['WWW-Authenticate']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/insufficient_scope",
         *       "title": "Insufficient scope",
         *       "status": 403,
         *       "detail": "The access token was not granted the scope this operation needs; `scope` names it.",
         *       "code": "insufficient_scope",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `resource_missing`, `module_disabled` (problem details; the codes are explained under /docs/errors/) */
    NotFound: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/resource_missing",
         *       "title": "Resource not found",
         *       "status": 404,
         *       "detail": "No such record or route, or it belongs to an org you cannot see (existence is never revealed).",
         *       "code": "resource_missing",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `method_not_allowed` (problem details; the codes are explained under /docs/errors/) */
    MethodNotAllowed: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/method_not_allowed",
         *       "title": "Method not allowed",
         *       "status": 405,
         *       "detail": "The path exists, but not with this HTTP method.",
         *       "code": "method_not_allowed",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `conflict`, `idempotency_key_in_use` (problem details; the codes are explained under /docs/errors/) */
    Conflict: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        'Retry-After': components['headers']['Retry-After']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/conflict",
         *       "title": "Conflict",
         *       "status": 409,
         *       "detail": "The request conflicts with the current state: a duplicate, or a record changed meanwhile.",
         *       "code": "conflict",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `payload_too_large` (problem details; the codes are explained under /docs/errors/) */
    ContentTooLarge: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/payload_too_large",
         *       "title": "Payload too large",
         *       "status": 413,
         *       "detail": "The request body is larger than 1 MiB.",
         *       "code": "payload_too_large",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `unsupported_media_type` (problem details; the codes are explained under /docs/errors/) */
    UnsupportedMediaType: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/unsupported_media_type",
         *       "title": "Unsupported media type",
         *       "status": 415,
         *       "detail": "The body’s `Content-Type` is not one this operation accepts.",
         *       "code": "unsupported_media_type",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `wrong_region` (problem details; the codes are explained under /docs/errors/) */
    MisdirectedRequest: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/wrong_region",
         *       "title": "Wrong region",
         *       "status": 421,
         *       "detail": "The org or request belongs to another region’s deployment.",
         *       "code": "wrong_region",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `idempotency_key_reused`, `splits_invalid`, `balance_below_minimum`, `nothing_to_pay`, `unprocessable`, `invalid_state` (problem details; the codes are explained under /docs/errors/) */
    UnprocessableContent: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/unprocessable",
         *       "title": "Business rule violated",
         *       "status": 422,
         *       "detail": "The request is well-formed but breaks a business rule; `detail` says which.",
         *       "code": "unprocessable",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `rate_limited` (problem details; the codes are explained under /docs/errors/) */
    TooManyRequests: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        'Retry-After': components['headers']['Retry-After']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/rate_limited",
         *       "title": "Too many requests",
         *       "status": 429,
         *       "detail": "The caller used up its rate limit for the moment.",
         *       "code": "rate_limited",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `internal_error` (problem details; the codes are explained under /docs/errors/) */
    InternalServerError: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/internal_error",
         *       "title": "Internal error",
         *       "status": 500,
         *       "detail": "Something failed on our side; the request itself may be fine.",
         *       "code": "internal_error",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
    /** @description `service_unavailable` (problem details; the codes are explained under /docs/errors/) */
    ServiceUnavailable: {
      headers: {
        'X-Request-Id': components['headers']['X-Request-Id']
        'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
        'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
        'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
        'Retry-After': components['headers']['Retry-After']
        [name: string]: unknown
      }
      content: {
        /**
         * @example {
         *       "type": "http://127.0.0.1:3000/docs/errors/service_unavailable",
         *       "title": "Service unavailable",
         *       "status": 503,
         *       "detail": "The service cannot reach what it depends on (its database) right now.",
         *       "code": "service_unavailable",
         *       "requestId": "req_3kT9bV2pQ7xZ1mN8"
         *     }
         */
        'application/problem+json': components['schemas']['Problem']
      }
    }
  }
  parameters: {
    /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
    IdempotencyKey: string
  }
  requestBodies: never
  headers: {
    /** @description The request’s id: yours when you sent a sane `X-Request-Id`, else generated. Quote it to support. */
    'X-Request-Id': string
    /** @description Requests allowed per minute for the caller’s tier */
    'X-RateLimit-Limit': number
    /** @description Requests left in the current window */
    'X-RateLimit-Remaining': number
    /** @description When the window resets, as Unix time in seconds */
    'X-RateLimit-Reset': number
    /** @description Seconds to wait before sending the request again */
    'Retry-After': number
    /** @description The Bearer challenge (RFC 6750): `error="invalid_token"`, or `"insufficient_scope"` with the scope */
    'WWW-Authenticate': string
    /** @description `true` when this is the stored response to an earlier request with the same `Idempotency-Key` */
    'Idempotent-Replayed': 'true'
  }
  pathItems: never
}
export type $defs = Record<string, never>
export interface operations {
  getDeployment: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description What a client needs to know of this deployment before signing in */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Deployment']
        }
      }
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  signUp: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['SignUpRequest']
      }
    }
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Session']
        }
      }
      400: components['responses']['BadRequest']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  logIn: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['LogInRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Session']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  signUpWithCookie: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['SignUpRequest']
      }
    }
    responses: {
      /** @description A session held in an HttpOnly cookie for the web app: the token is in Set-Cookie only, never in the body. */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['CookieSession']
        }
      }
      400: components['responses']['BadRequest']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  logInWithCookie: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['LogInRequest']
      }
    }
    responses: {
      /** @description A session held in an HttpOnly cookie for the web app: the token is in Set-Cookie only, never in the body. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['CookieSession']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  logOut: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description No content */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content?: never
      }
      401: components['responses']['Unauthorized']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getMe: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Me']
        }
      }
      401: components['responses']['Unauthorized']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  createOrg: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateOrgRequest']
      }
    }
    responses: {
      /** @description The org created, and the session’s active org, which creating it changed */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['CreatedOrg']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      421: components['responses']['MisdirectedRequest']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  setActiveOrg: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['SetActiveOrgRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Me']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listMembers: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A page of records */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['MemberList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  removeMember: {
    parameters: {
      query?: never
      header?: never
      path: {
        userId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description No content */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content?: never
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  changeMemberRole: {
    parameters: {
      query?: never
      header?: never
      path: {
        userId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['ChangeMemberRoleRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Member']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listInvitations: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Invitations not accepted or revoked, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PendingInvitationList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  inviteMember: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['InviteMemberRequest']
      }
    }
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Invitation']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  revokeInvitation: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PendingInvitation']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  resendInvitation: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Invitation']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  previewInvitation: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['InvitationPreviewRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['InvitationPreview']
        }
      }
      400: components['responses']['BadRequest']
      404: components['responses']['NotFound']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  acceptInvitation: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['AcceptInvitationRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['MembershipRecord']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  requestPasswordReset: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['PasswordResetRequest']
      }
    }
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PasswordResetAccepted']
        }
      }
      400: components['responses']['BadRequest']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  confirmPasswordReset: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['PasswordResetConfirmRequest']
      }
    }
    responses: {
      /** @description No content */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content?: never
      }
      400: components['responses']['BadRequest']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listEmailKinds: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['EmailKindList']
        }
      }
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getEmailPreferences: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['EmailPreferences']
        }
      }
      401: components['responses']['Unauthorized']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  setEmailPreferences: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['EmailPreferencesBody']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['EmailPreferences']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listWebhookKinds: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['WebhookKindList']
        }
      }
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listOrgEvents: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        /** @description An action (payout.paid), or an object without a dot: payout finds every payout.* action */
        action?: string
        /** @description Events created at or after this time */
        since?: string
        /** @description Events created before this time */
        until?: string
        /** @description asc (the default: oldest first, the cursor always returned so you can poll) or desc (newest first) */
        order?: 'asc' | 'desc'
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A page of the audit log, with who did each thing */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['AuditLogPage']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getOrgEvent: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description One org event with the hash it is chained to: enough to recompute its own hash */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OrgEventDetail']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listOAuthClients: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OAuth clients of the active org, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OAuthClientList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  createOAuthClient: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "Royalty dashboard",
         *       "scopes": [
         *         "events:read",
         *         "members:read"
         *       ]
         *     }
         */
        'application/json': components['schemas']['CreateOAuthClientRequest']
      }
    }
    responses: {
      /** @description The client with its secret, shown this once */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "cli_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "orgId": "org_01JD2YB6X8Q0W3M5N7P9R1T3V4",
           *       "name": "Royalty dashboard",
           *       "scopes": [
           *         "events:read",
           *         "members:read"
           *       ],
           *       "tier": "api_partner_sandbox",
           *       "rateLimit": {
           *         "perMinute": 60,
           *         "burst": 120
           *       },
           *       "environment": "sandbox",
           *       "status": "active",
           *       "userId": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V6",
           *       "secretHint": "cs_test_…x7Qa",
           *       "secretRotatedAt": null,
           *       "previousSecretExpiresAt": null,
           *       "lastUsedAt": null,
           *       "lastUsedFrom": null,
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V7",
           *       "revokedAt": null,
           *       "secret": "cs_test_4fJq0m3Yl2mXo3r8oPqk9Vb7cT1s2Xw5nDh6Gu0Ax7Qa"
           *     }
           */
          'application/json': components['schemas']['OAuthClientWithSecret']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getOAuthClient: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description An OAuth client (its secret is never shown again) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "cli_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "orgId": "org_01JD2YB6X8Q0W3M5N7P9R1T3V4",
           *       "name": "Royalty dashboard",
           *       "scopes": [
           *         "events:read",
           *         "members:read"
           *       ],
           *       "tier": "api_partner_sandbox",
           *       "rateLimit": {
           *         "perMinute": 60,
           *         "burst": 120
           *       },
           *       "environment": "sandbox",
           *       "status": "active",
           *       "userId": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V6",
           *       "secretHint": "cs_test_…x7Qa",
           *       "secretRotatedAt": null,
           *       "previousSecretExpiresAt": null,
           *       "lastUsedAt": null,
           *       "lastUsedFrom": null,
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V7",
           *       "revokedAt": null
           *     }
           */
          'application/json': components['schemas']['OAuthClient']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listOAuthClientRequests: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        /** @description A status class (2xx, 4xx, 5xx) or an exact status code (429) */
        status?: string
        /** @description A route pattern, exactly as listed (e.g. /v1/orgs/{orgId}/events) */
        path?: string
      }
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Requests made with the client’s credentials in the last 30 days, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OAuthClientRequestList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  rotateOAuthClientSecret: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The client with its secret, shown this once */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "cli_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "orgId": "org_01JD2YB6X8Q0W3M5N7P9R1T3V4",
           *       "name": "Royalty dashboard",
           *       "scopes": [
           *         "events:read",
           *         "members:read"
           *       ],
           *       "tier": "api_partner_sandbox",
           *       "rateLimit": {
           *         "perMinute": 60,
           *         "burst": 120
           *       },
           *       "environment": "sandbox",
           *       "status": "active",
           *       "userId": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V6",
           *       "secretHint": "cs_test_…x7Qa",
           *       "secretRotatedAt": null,
           *       "previousSecretExpiresAt": null,
           *       "lastUsedAt": null,
           *       "lastUsedFrom": null,
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V7",
           *       "revokedAt": null,
           *       "secret": "cs_test_4fJq0m3Yl2mXo3r8oPqk9Vb7cT1s2Xw5nDh6Gu0Ax7Qa"
           *     }
           */
          'application/json': components['schemas']['OAuthClientWithSecret']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  revokeOAuthClient: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description An OAuth client (its secret is never shown again) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "cli_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "orgId": "org_01JD2YB6X8Q0W3M5N7P9R1T3V4",
           *       "name": "Royalty dashboard",
           *       "scopes": [
           *         "events:read",
           *         "members:read"
           *       ],
           *       "tier": "api_partner_sandbox",
           *       "rateLimit": {
           *         "perMinute": 60,
           *         "burst": 120
           *       },
           *       "environment": "sandbox",
           *       "status": "active",
           *       "userId": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V6",
           *       "secretHint": "cs_test_…x7Qa",
           *       "secretRotatedAt": null,
           *       "previousSecretExpiresAt": null,
           *       "lastUsedAt": null,
           *       "lastUsedFrom": null,
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V7",
           *       "revokedAt": null
           *     }
           */
          'application/json': components['schemas']['OAuthClient']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  requestAccessToken: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** @description application/x-www-form-urlencoded; credentials in the body or in HTTP Basic, not both */
    requestBody: {
      content: {
        /**
         * @example {
         *       "grant_type": "client_credentials",
         *       "client_id": "cli_01JD2YB6X8Q0W3M5N7P9R1T3V5",
         *       "client_secret": "cs_test_4fJq0m3Yl2mXo3r8oPqk9Vb7cT1s2Xw5nDh6Gu0Ax7Qa",
         *       "scope": "events:read members:read"
         *     }
         */
        'application/x-www-form-urlencoded': components['schemas']['AccessTokenRequest']
      }
    }
    responses: {
      /** @description An access token (no refresh token: ask again when it expires) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "access_token": "oat_Zk3w9Jt0bq1Q7c5VYxM2uJrA6nL8pE4sH0dG2fK1iOw",
           *       "token_type": "Bearer",
           *       "expires_in": 3600,
           *       "scope": "events:read members:read",
           *       "org_id": "org_01JD2YB6X8Q0W3M5N7P9R1T3V5"
           *     }
           */
          'application/json': components['schemas']['AccessToken']
        }
      }
      /** @description RFC 6749 section 5.2 error (this route only; every other route answers problem+json) */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": "invalid_scope",
           *       "error_description": "scope webhooks:write is not allowed for this client"
           *     }
           */
          'application/json': components['schemas']['OAuthError']
        }
      }
      /** @description RFC 6749 section 5.2 error (this route only; every other route answers problem+json) */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'WWW-Authenticate': components['headers']['WWW-Authenticate']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": "invalid_scope",
           *       "error_description": "scope webhooks:write is not allowed for this client"
           *     }
           */
          'application/json': components['schemas']['OAuthError']
        }
      }
      /** @description RFC 6749 section 5.2 error (this route only; every other route answers problem+json) */
      421: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": "invalid_scope",
           *       "error_description": "scope webhooks:write is not allowed for this client"
           *     }
           */
          'application/json': components['schemas']['OAuthError']
        }
      }
      /** @description RFC 6749 section 5.2 error (this route only; every other route answers problem+json) */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Retry-After': components['headers']['Retry-After']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": "invalid_scope",
           *       "error_description": "scope webhooks:write is not allowed for this client"
           *     }
           */
          'application/json': components['schemas']['OAuthError']
        }
      }
      /** @description RFC 6749 section 5.2 error (this route only; every other route answers problem+json) */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": "invalid_scope",
           *       "error_description": "scope webhooks:write is not allowed for this client"
           *     }
           */
          'application/json': components['schemas']['OAuthError']
        }
      }
      /** @description RFC 6749 section 5.2 error (this route only; every other route answers problem+json) */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Retry-After': components['headers']['Retry-After']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "error": "invalid_scope",
           *       "error_description": "scope webhooks:write is not allowed for this client"
           *     }
           */
          'application/json': components['schemas']['OAuthError']
        }
      }
    }
  }
  getAuthorizationServerMetadata: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OAuth 2.0 authorization server metadata (RFC 8414) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['AuthorizationServerMetadata']
        }
      }
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListOrgs: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The orgs the token acts in */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "org_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "name": "Acme Royalties Sandbox",
           *           "environment": "sandbox",
           *           "region": "eu-west",
           *           "createdAt": "2026-11-22T10:00:00.000Z",
           *           "createdBy": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V7"
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['OrgList']
        }
      }
      401: components['responses']['Unauthorized']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListOrgEvents: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        /** @description An action (payout.paid), or an object without a dot: payout finds every payout.* action */
        action?: string
        /** @description Events created at or after this time */
        since?: string
        /** @description Events created before this time */
        until?: string
      }
      header?: never
      path: {
        /** @description The org the access token was issued for */
        orgId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Org events, oldest first; the cursor is always returned */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "evt_01JD2YC0A1B2C3D4E5F6G7H8J9",
           *           "orgId": "org_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "action": "member.invited",
           *           "userId": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V7",
           *           "createdAt": "2026-11-22T10:15:30.123Z",
           *           "hash": "sha256:9f2c4e8a1b3d5f7092a4c6e8f0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8",
           *           "sequence": 42,
           *           "resource": {
           *             "type": "invitation",
           *             "id": "inv_01JD2YC0A1B2C3D4E5F6G7H8JA"
           *           },
           *           "data": {
           *             "id": "inv_01JD2YC0A1B2C3D4E5F6G7H8JA",
           *             "email": "ada@example.com",
           *             "role": "editor",
           *             "expiresAt": "2026-11-29T10:15:30.123Z"
           *           }
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "eyJrIjpbNDJdLCJmIjoiUTNfb3ZBcWdCVmFrRnRFQSJ9",
           *         "hasMore": false
           *       }
           *     }
           */
          'application/json': components['schemas']['OrgEventList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetOrgEvent: {
    parameters: {
      query?: never
      header?: never
      path: {
        /** @description The org the access token was issued for */
        orgId: string
        eventId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description One entry of the org audit log, hash-chained to the previous one */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "evt_01JD2YC0A1B2C3D4E5F6G7H8J9",
           *       "orgId": "org_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "action": "member.invited",
           *       "userId": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V7",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "hash": "sha256:9f2c4e8a1b3d5f7092a4c6e8f0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8",
           *       "sequence": 42,
           *       "resource": {
           *         "type": "invitation",
           *         "id": "inv_01JD2YC0A1B2C3D4E5F6G7H8JA"
           *       },
           *       "data": {
           *         "id": "inv_01JD2YC0A1B2C3D4E5F6G7H8JA",
           *         "email": "ada@example.com",
           *         "role": "editor",
           *         "expiresAt": "2026-11-29T10:15:30.123Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['OrgEvent']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListMembers: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path: {
        /** @description The org the access token was issued for */
        orgId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A page of records */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "userId": "usr_01JD2YB6X8Q0W3M5N7P9R1T3V7",
           *           "name": "Ada Lovelace",
           *           "email": "ada@example.com",
           *           "role": "owner",
           *           "joinedAt": "2026-11-22T10:00:00.000Z"
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": null,
           *         "hasMore": false
           *       }
           *     }
           */
          'application/json': components['schemas']['MemberList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listCreators: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Creators, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['CreatorList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  createCreator: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateCreatorRequest']
      }
    }
    responses: {
      /** @description A creator: an artist, songwriter, producer, publisher or label who is paid from revenue */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Creator']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getCreator: {
    parameters: {
      query?: never
      header?: never
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A creator: an artist, songwriter, producer, publisher or label who is paid from revenue */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Creator']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listCatalogEntries: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        kind?: components['schemas']['CatalogKind']
        /** @description Entries with this ISRC (any form; normalised) */
        isrc?: string
        /** @description Entries with a split to this creator */
        creatorId?: string
        /** @description Case-insensitive text in the title, version title or display artist */
        q?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Catalog entries, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['CatalogEntryList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  createCatalogEntry: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateCatalogEntryRequest']
      }
    }
    responses: {
      /** @description A work, recording or release with its splits */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['CatalogEntry']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getCatalogEntry: {
    parameters: {
      query?: never
      header?: never
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A work, recording or release with its splits */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['CatalogEntry']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listTicketedEvents: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Ticketed events, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['TicketedEventList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  createTicketedEvent: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateTicketedEventRequest']
      }
    }
    responses: {
      /** @description A ticketed event: a concert or show with its venue and tickets */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['TicketedEvent']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getTicketedEvent: {
    parameters: {
      query?: never
      header?: never
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A ticketed event: a concert or show with its venue and tickets */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['TicketedEvent']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  publishTicketedEvent: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A ticketed event: a concert or show with its venue and tickets */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['TicketedEvent']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  cancelTicketedEvent: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A ticketed event: a concert or show with its venue and tickets */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['TicketedEvent']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listRevenueEntries: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        catalogId?: string
        /** @description Entries allocated (in part) to this creator */
        creatorId?: string
        /** @description Entries whose period ends on or after this date */
        periodFrom?: string
        /** @description Entries whose period starts on or before this date */
        periodTo?: string
        /** @description ISO 4217 alphabetic code, e.g. EUR */
        currency?: string
        /** @description The lines of one import batch (the batchId of its revenue.imported event) */
        batchId?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Revenue entries, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['RevenueEntryList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  createRevenueEntry: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateRevenueEntryRequest']
      }
    }
    responses: {
      /** @description An immutable revenue entry with its allocation to creators */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['RevenueEntry']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getRevenueEntryProof: {
    parameters: {
      query?: never
      header?: never
      path: {
        revenueId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description An imported revenue line’s RFC 6962 inclusion proof in its batch event’s root */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['RevenueInclusionProof']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  importRevenueStatement: {
    parameters: {
      query?: {
        /** @description Where the money comes from (e.g. Spotify); required unless the statement has a source column. Part of each line’s identity, so a re-run skips what is recorded */
        source?: string
      }
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    /** @description The statement, streamed as it arrives (up to 50 MiB) */
    requestBody: {
      content: {
        'text/csv': components['schemas']['RevenueStatementCsv']
      }
    }
    responses: {
      /** @description What a statement import did */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['RevenueImportReport']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listPayouts: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        status?: components['schemas']['PayoutStatus']
        /** @description The payouts of one payout run batch (the batchId of its payouts.run event) */
        batchId?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Payouts, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PayoutList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  createPayout: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['CreatePayoutRequest']
      }
    }
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listPayoutBalances: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        /** @description The balances of one creator */
        creatorId?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Balances per creator (in id order) and currency */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PayoutBalanceList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getPayout: {
    parameters: {
      query?: never
      header?: never
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listPayoutLines: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The statement’s allocations, in revenue id order */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PayoutLineList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  cancelPayout: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  markPayoutInTransit: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  markPayoutPaid: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  markPayoutFailed: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['MarkPayoutFailedRequest']
      }
    }
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListCreators: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Creators, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "crt_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "name": "string",
           *           "legalName": "string",
           *           "kind": "person",
           *           "roles": [
           *             "artist"
           *           ],
           *           "email": "string",
           *           "country": "string",
           *           "ipi": "string",
           *           "isni": "string",
           *           "payoutCurrency": "string",
           *           "minimumPayout": "string",
           *           "openingBalance": "string",
           *           "createdAt": "2026-11-22T10:15:30.123Z",
           *           "createdBy": "string"
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "string",
           *         "hasMore": true
           *       }
           *     }
           */
          'application/json': components['schemas']['CreatorList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1CreateCreator: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "string",
         *       "legalName": "string",
         *       "kind": "person",
         *       "roles": [
         *         "artist"
         *       ],
         *       "email": "ada@example.com",
         *       "country": "AA",
         *       "ipi": "string",
         *       "isni": "string",
         *       "payoutCurrency": "EUR",
         *       "minimumPayout": "50.00",
         *       "openingBalance": "-500.00"
         *     }
         */
        'application/json': components['schemas']['CreateCreatorRequest']
      }
    }
    responses: {
      /** @description A creator: an artist, songwriter, producer, publisher or label who is paid from revenue */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "crt_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "name": "string",
           *       "legalName": "string",
           *       "kind": "person",
           *       "roles": [
           *         "artist"
           *       ],
           *       "email": "string",
           *       "country": "string",
           *       "ipi": "string",
           *       "isni": "string",
           *       "payoutCurrency": "string",
           *       "minimumPayout": "string",
           *       "openingBalance": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string"
           *     }
           */
          'application/json': components['schemas']['Creator']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetCreator: {
    parameters: {
      query?: never
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A creator: an artist, songwriter, producer, publisher or label who is paid from revenue */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "crt_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "name": "string",
           *       "legalName": "string",
           *       "kind": "person",
           *       "roles": [
           *         "artist"
           *       ],
           *       "email": "string",
           *       "country": "string",
           *       "ipi": "string",
           *       "isni": "string",
           *       "payoutCurrency": "string",
           *       "minimumPayout": "string",
           *       "openingBalance": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string"
           *     }
           */
          'application/json': components['schemas']['Creator']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListCatalogEntries: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        kind?: components['schemas']['CatalogKind']
        /** @description Entries with this ISRC (any form; normalised) */
        isrc?: string
        /** @description Entries with a split to this creator */
        creatorId?: string
        /** @description Case-insensitive text in the title, version title or display artist */
        q?: string
      }
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Catalog entries, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "cat_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "kind": "work",
           *           "title": "string",
           *           "versionTitle": "string",
           *           "displayArtist": "string",
           *           "identifiers": {
           *             "isrc": "string",
           *             "iswc": "string",
           *             "upc": "string"
           *           },
           *           "releaseDate": "2026-11-22",
           *           "territories": [
           *             "string"
           *           ],
           *           "workId": "string",
           *           "splits": [
           *             {
           *               "creatorId": "string",
           *               "role": "artist",
           *               "shareBps": 1
           *             }
           *           ],
           *           "supersedes": "string",
           *           "supersededBy": "string",
           *           "status": "active",
           *           "createdAt": "2026-11-22T10:15:30.123Z",
           *           "createdBy": "string"
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "string",
           *         "hasMore": true
           *       }
           *     }
           */
          'application/json': components['schemas']['CatalogEntryList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1CreateCatalogEntry: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "kind": "work",
         *       "title": "string",
         *       "versionTitle": "Radio Edit",
         *       "displayArtist": "string",
         *       "identifiers": {
         *         "isrc": "US-RC1-76-07839",
         *         "iswc": "T-034.524.680-1",
         *         "upc": "036000291452"
         *       },
         *       "releaseDate": "2026-11-22",
         *       "territories": [
         *         "AA"
         *       ],
         *       "workId": "string",
         *       "splits": [
         *         {
         *           "creatorId": "string",
         *           "role": "artist",
         *           "shareBps": 1
         *         }
         *       ],
         *       "supersedes": "string"
         *     }
         */
        'application/json': components['schemas']['CreateCatalogEntryRequest']
      }
    }
    responses: {
      /** @description A work, recording or release with its splits */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "cat_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "kind": "work",
           *       "title": "string",
           *       "versionTitle": "string",
           *       "displayArtist": "string",
           *       "identifiers": {
           *         "isrc": "string",
           *         "iswc": "string",
           *         "upc": "string"
           *       },
           *       "releaseDate": "2026-11-22",
           *       "territories": [
           *         "string"
           *       ],
           *       "workId": "string",
           *       "splits": [
           *         {
           *           "creatorId": "string",
           *           "role": "artist",
           *           "shareBps": 1
           *         }
           *       ],
           *       "supersedes": "string",
           *       "supersededBy": "string",
           *       "status": "active",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string"
           *     }
           */
          'application/json': components['schemas']['CatalogEntry']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetCatalogEntry: {
    parameters: {
      query?: never
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A work, recording or release with its splits */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "cat_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "kind": "work",
           *       "title": "string",
           *       "versionTitle": "string",
           *       "displayArtist": "string",
           *       "identifiers": {
           *         "isrc": "string",
           *         "iswc": "string",
           *         "upc": "string"
           *       },
           *       "releaseDate": "2026-11-22",
           *       "territories": [
           *         "string"
           *       ],
           *       "workId": "string",
           *       "splits": [
           *         {
           *           "creatorId": "string",
           *           "role": "artist",
           *           "shareBps": 1
           *         }
           *       ],
           *       "supersedes": "string",
           *       "supersededBy": "string",
           *       "status": "active",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string"
           *     }
           */
          'application/json': components['schemas']['CatalogEntry']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListTicketedEvents: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Ticketed events, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "tev_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "name": "string",
           *           "venue": {
           *             "name": "string",
           *             "city": "string",
           *             "country": "string"
           *           },
           *           "startsAt": "2026-11-22T10:15:30.123Z",
           *           "endsAt": "2026-11-22T10:15:30.123Z",
           *           "timezone": "string",
           *           "currency": "string",
           *           "capacity": 1,
           *           "ticketTypes": [
           *             {
           *               "name": "string",
           *               "price": "string",
           *               "quantity": 1
           *             }
           *           ],
           *           "performerIds": [
           *             "string"
           *           ],
           *           "catalogIds": [
           *             "string"
           *           ],
           *           "status": "draft",
           *           "lifecycle": "upcoming",
           *           "createdAt": "2026-11-22T10:15:30.123Z",
           *           "createdBy": "string"
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "string",
           *         "hasMore": true
           *       }
           *     }
           */
          'application/json': components['schemas']['TicketedEventList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1CreateTicketedEvent: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "string",
         *       "venue": {
         *         "name": "string",
         *         "city": "string",
         *         "country": "AA"
         *       },
         *       "startsAt": "2026-11-22T10:15:30.123Z",
         *       "endsAt": "2026-11-22T10:15:30.123Z",
         *       "timezone": "Europe/Berlin",
         *       "currency": "EUR",
         *       "capacity": 1,
         *       "ticketTypes": [
         *         {
         *           "name": "string",
         *           "price": "39.00",
         *           "quantity": 1
         *         }
         *       ],
         *       "performerIds": [
         *         "string"
         *       ],
         *       "catalogIds": [
         *         "string"
         *       ],
         *       "status": "draft"
         *     }
         */
        'application/json': components['schemas']['CreateTicketedEventRequest']
      }
    }
    responses: {
      /** @description A ticketed event: a concert or show with its venue and tickets */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "tev_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "name": "string",
           *       "venue": {
           *         "name": "string",
           *         "city": "string",
           *         "country": "string"
           *       },
           *       "startsAt": "2026-11-22T10:15:30.123Z",
           *       "endsAt": "2026-11-22T10:15:30.123Z",
           *       "timezone": "string",
           *       "currency": "string",
           *       "capacity": 1,
           *       "ticketTypes": [
           *         {
           *           "name": "string",
           *           "price": "string",
           *           "quantity": 1
           *         }
           *       ],
           *       "performerIds": [
           *         "string"
           *       ],
           *       "catalogIds": [
           *         "string"
           *       ],
           *       "status": "draft",
           *       "lifecycle": "upcoming",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string"
           *     }
           */
          'application/json': components['schemas']['TicketedEvent']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetTicketedEvent: {
    parameters: {
      query?: never
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A ticketed event: a concert or show with its venue and tickets */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "tev_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "name": "string",
           *       "venue": {
           *         "name": "string",
           *         "city": "string",
           *         "country": "string"
           *       },
           *       "startsAt": "2026-11-22T10:15:30.123Z",
           *       "endsAt": "2026-11-22T10:15:30.123Z",
           *       "timezone": "string",
           *       "currency": "string",
           *       "capacity": 1,
           *       "ticketTypes": [
           *         {
           *           "name": "string",
           *           "price": "string",
           *           "quantity": 1
           *         }
           *       ],
           *       "performerIds": [
           *         "string"
           *       ],
           *       "catalogIds": [
           *         "string"
           *       ],
           *       "status": "draft",
           *       "lifecycle": "upcoming",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string"
           *     }
           */
          'application/json': components['schemas']['TicketedEvent']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1PublishTicketedEvent: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A ticketed event: a concert or show with its venue and tickets */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "tev_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "name": "string",
           *       "venue": {
           *         "name": "string",
           *         "city": "string",
           *         "country": "string"
           *       },
           *       "startsAt": "2026-11-22T10:15:30.123Z",
           *       "endsAt": "2026-11-22T10:15:30.123Z",
           *       "timezone": "string",
           *       "currency": "string",
           *       "capacity": 1,
           *       "ticketTypes": [
           *         {
           *           "name": "string",
           *           "price": "string",
           *           "quantity": 1
           *         }
           *       ],
           *       "performerIds": [
           *         "string"
           *       ],
           *       "catalogIds": [
           *         "string"
           *       ],
           *       "status": "draft",
           *       "lifecycle": "upcoming",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string"
           *     }
           */
          'application/json': components['schemas']['TicketedEvent']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1CancelTicketedEvent: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A ticketed event: a concert or show with its venue and tickets */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "tev_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "name": "string",
           *       "venue": {
           *         "name": "string",
           *         "city": "string",
           *         "country": "string"
           *       },
           *       "startsAt": "2026-11-22T10:15:30.123Z",
           *       "endsAt": "2026-11-22T10:15:30.123Z",
           *       "timezone": "string",
           *       "currency": "string",
           *       "capacity": 1,
           *       "ticketTypes": [
           *         {
           *           "name": "string",
           *           "price": "string",
           *           "quantity": 1
           *         }
           *       ],
           *       "performerIds": [
           *         "string"
           *       ],
           *       "catalogIds": [
           *         "string"
           *       ],
           *       "status": "draft",
           *       "lifecycle": "upcoming",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string"
           *     }
           */
          'application/json': components['schemas']['TicketedEvent']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListRevenueEntries: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        catalogId?: string
        /** @description Entries allocated (in part) to this creator */
        creatorId?: string
        /** @description Entries whose period ends on or after this date */
        periodFrom?: string
        /** @description Entries whose period starts on or before this date */
        periodTo?: string
        /** @description ISO 4217 alphabetic code, e.g. EUR */
        currency?: string
        /** @description The lines of one import batch (the batchId of its revenue.imported event) */
        batchId?: string
      }
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Revenue entries, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "rev_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "catalogId": "string",
           *           "eventId": "string",
           *           "source": "string",
           *           "type": "stream",
           *           "periodStart": "2026-11-22",
           *           "periodEnd": "2026-11-22",
           *           "territory": "string",
           *           "units": 1,
           *           "amount": "string",
           *           "currency": "string",
           *           "statementRef": "string",
           *           "lineRef": "string",
           *           "reverses": "string",
           *           "batchId": "bat_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "allocations": [
           *             {
           *               "creatorId": "string",
           *               "amount": "string"
           *             }
           *           ],
           *           "createdAt": "2026-11-22T10:15:30.123Z",
           *           "createdBy": "string"
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "string",
           *         "hasMore": true
           *       }
           *     }
           */
          'application/json': components['schemas']['RevenueEntryList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1CreateRevenueEntry: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "catalogId": "string",
         *       "isrc": "string",
         *       "iswc": "string",
         *       "upc": "string",
         *       "eventId": "string",
         *       "source": "Spotify",
         *       "type": "stream",
         *       "periodStart": "2026-11-22",
         *       "periodEnd": "2026-11-22",
         *       "territory": "AA",
         *       "units": 1,
         *       "amount": "0.004217",
         *       "currency": "EUR",
         *       "statementRef": "string",
         *       "lineRef": "string",
         *       "reverses": "string"
         *     }
         */
        'application/json': components['schemas']['CreateRevenueEntryRequest']
      }
    }
    responses: {
      /** @description An immutable revenue entry with its allocation to creators */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "rev_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "catalogId": "string",
           *       "eventId": "string",
           *       "source": "string",
           *       "type": "stream",
           *       "periodStart": "2026-11-22",
           *       "periodEnd": "2026-11-22",
           *       "territory": "string",
           *       "units": 1,
           *       "amount": "string",
           *       "currency": "string",
           *       "statementRef": "string",
           *       "lineRef": "string",
           *       "reverses": "string",
           *       "batchId": "bat_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "allocations": [
           *         {
           *           "creatorId": "string",
           *           "amount": "string"
           *         }
           *       ],
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string"
           *     }
           */
          'application/json': components['schemas']['RevenueEntry']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetRevenueEntryProof: {
    parameters: {
      query?: never
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        revenueId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description An imported revenue line’s RFC 6962 inclusion proof in its batch event’s root */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "revenueId": "rev_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "batchId": "bat_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "eventId": "evt_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "leafIndex": 1,
           *       "treeSize": 1,
           *       "root": "0000000000000000000000000000000000000000000000000000000000000000",
           *       "auditPath": [
           *         "0000000000000000000000000000000000000000000000000000000000000000"
           *       ],
           *       "leaf": "string"
           *     }
           */
          'application/json': components['schemas']['RevenueInclusionProof']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListPayouts: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        status?: components['schemas']['PayoutStatus']
        /** @description The payouts of one payout run batch (the batchId of its payouts.run event) */
        batchId?: string
      }
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Payouts, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "po_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "creatorId": "string",
           *           "amount": "string",
           *           "currency": "string",
           *           "status": "pending",
           *           "statement": {
           *             "openingBalance": "string",
           *             "earnings": "string",
           *             "recouped": "string",
           *             "carriedForward": "string",
           *             "entries": 1,
           *             "periodStart": "2026-11-22",
           *             "periodEnd": "2026-11-22"
           *           },
           *           "method": "manual",
           *           "failureCode": "string",
           *           "failureMessage": "string",
           *           "createdAt": "2026-11-22T10:15:30.123Z",
           *           "paidAt": "2026-11-22T10:15:30.123Z",
           *           "batchId": "bat_01JD2YB6X8Q0W3M5N7P9R1T3V5"
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "string",
           *         "hasMore": true
           *       }
           *     }
           */
          'application/json': components['schemas']['PayoutList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1CreatePayout: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "creatorId": "string",
         *       "currency": "EUR",
         *       "through": "2026-11-22"
         *     }
         */
        'application/json': components['schemas']['CreatePayoutRequest']
      }
    }
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "po_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "creatorId": "string",
           *       "amount": "string",
           *       "currency": "string",
           *       "status": "pending",
           *       "statement": {
           *         "openingBalance": "string",
           *         "earnings": "string",
           *         "recouped": "string",
           *         "carriedForward": "string",
           *         "entries": 1,
           *         "periodStart": "2026-11-22",
           *         "periodEnd": "2026-11-22"
           *       },
           *       "method": "manual",
           *       "failureCode": "string",
           *       "failureMessage": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "paidAt": "2026-11-22T10:15:30.123Z",
           *       "batchId": "bat_01JD2YB6X8Q0W3M5N7P9R1T3V5"
           *     }
           */
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListPayoutBalances: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        /** @description The balances of one creator */
        creatorId?: string
      }
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Balances per creator (in id order) and currency */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "creatorId": "string",
           *           "currency": "string",
           *           "openingBalance": "string",
           *           "earnings": "string",
           *           "entries": 1,
           *           "balance": "string",
           *           "payable": "string",
           *           "minimumPayout": "string",
           *           "payableNow": true
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "string",
           *         "hasMore": true
           *       }
           *     }
           */
          'application/json': components['schemas']['PayoutBalanceList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetPayout: {
    parameters: {
      query?: never
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "po_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "creatorId": "string",
           *       "amount": "string",
           *       "currency": "string",
           *       "status": "pending",
           *       "statement": {
           *         "openingBalance": "string",
           *         "earnings": "string",
           *         "recouped": "string",
           *         "carriedForward": "string",
           *         "entries": 1,
           *         "periodStart": "2026-11-22",
           *         "periodEnd": "2026-11-22"
           *       },
           *       "method": "manual",
           *       "failureCode": "string",
           *       "failureMessage": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "paidAt": "2026-11-22T10:15:30.123Z",
           *       "batchId": "bat_01JD2YB6X8Q0W3M5N7P9R1T3V5"
           *     }
           */
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListPayoutLines: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The statement’s allocations, in revenue id order */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "revenueId": "rev_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "amount": "string",
           *           "catalogId": "string",
           *           "source": "string",
           *           "type": "string",
           *           "territory": "string",
           *           "periodStart": "2026-11-22",
           *           "periodEnd": "2026-11-22"
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "string",
           *         "hasMore": true
           *       }
           *     }
           */
          'application/json': components['schemas']['PayoutLineList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1CancelPayout: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "po_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "creatorId": "string",
           *       "amount": "string",
           *       "currency": "string",
           *       "status": "pending",
           *       "statement": {
           *         "openingBalance": "string",
           *         "earnings": "string",
           *         "recouped": "string",
           *         "carriedForward": "string",
           *         "entries": 1,
           *         "periodStart": "2026-11-22",
           *         "periodEnd": "2026-11-22"
           *       },
           *       "method": "manual",
           *       "failureCode": "string",
           *       "failureMessage": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "paidAt": "2026-11-22T10:15:30.123Z",
           *       "batchId": "bat_01JD2YB6X8Q0W3M5N7P9R1T3V5"
           *     }
           */
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1MarkPayoutInTransit: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "po_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "creatorId": "string",
           *       "amount": "string",
           *       "currency": "string",
           *       "status": "pending",
           *       "statement": {
           *         "openingBalance": "string",
           *         "earnings": "string",
           *         "recouped": "string",
           *         "carriedForward": "string",
           *         "entries": 1,
           *         "periodStart": "2026-11-22",
           *         "periodEnd": "2026-11-22"
           *       },
           *       "method": "manual",
           *       "failureCode": "string",
           *       "failureMessage": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "paidAt": "2026-11-22T10:15:30.123Z",
           *       "batchId": "bat_01JD2YB6X8Q0W3M5N7P9R1T3V5"
           *     }
           */
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1MarkPayoutPaid: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "po_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "creatorId": "string",
           *       "amount": "string",
           *       "currency": "string",
           *       "status": "pending",
           *       "statement": {
           *         "openingBalance": "string",
           *         "earnings": "string",
           *         "recouped": "string",
           *         "carriedForward": "string",
           *         "entries": 1,
           *         "periodStart": "2026-11-22",
           *         "periodEnd": "2026-11-22"
           *       },
           *       "method": "manual",
           *       "failureCode": "string",
           *       "failureMessage": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "paidAt": "2026-11-22T10:15:30.123Z",
           *       "batchId": "bat_01JD2YB6X8Q0W3M5N7P9R1T3V5"
           *     }
           */
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1MarkPayoutFailed: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        /** @description The org id (must be the token’s org) */
        orgId: string
        /** @description The record id */
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "failureCode": "account_closed",
         *       "failureMessage": "string"
         *     }
         */
        'application/json': components['schemas']['MarkPayoutFailedRequest']
      }
    }
    responses: {
      /** @description A payout to a creator, computed from their unpaid allocations */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "po_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "creatorId": "string",
           *       "amount": "string",
           *       "currency": "string",
           *       "status": "pending",
           *       "statement": {
           *         "openingBalance": "string",
           *         "earnings": "string",
           *         "recouped": "string",
           *         "carriedForward": "string",
           *         "entries": 1,
           *         "periodStart": "2026-11-22",
           *         "periodEnd": "2026-11-22"
           *       },
           *       "method": "manual",
           *       "failureCode": "string",
           *       "failureMessage": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "paidAt": "2026-11-22T10:15:30.123Z",
           *       "batchId": "bat_01JD2YB6X8Q0W3M5N7P9R1T3V5"
           *     }
           */
          'application/json': components['schemas']['Payout']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listWebhooks: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Webhook endpoints, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['WebhookList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  createWebhook: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWebhookRequest']
      }
    }
    responses: {
      /** @description A webhook endpoint with its signing secret (shown once) */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['WebhookWithSecret']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getWebhook: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A webhook endpoint registration */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Webhook']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  deleteWebhook: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description No content */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content?: never
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  disableWebhook: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A webhook endpoint registration */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Webhook']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  enableWebhook: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A webhook endpoint registration */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Webhook']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  rotateWebhookSecret: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A webhook endpoint with its signing secret (shown once) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['WebhookWithSecret']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  testWebhook: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description One event sent to one endpoint, with every attempt */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['WebhookDelivery']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listWebhookDeliveries: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        status?: 'pending' | 'succeeded' | 'failed' | 'blocked'
      }
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Deliveries to this endpoint, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['WebhookDeliveryList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  redeliverWebhookDelivery: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
        deliveryId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description One event sent to one endpoint, with every attempt */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['WebhookDelivery']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  redeliverFailedWebhookDeliveries: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    /** @description Failed deliveries created at or after this time are sent again */
    requestBody: {
      content: {
        'application/json': components['schemas']['RedeliverFailedRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['RedeliverFailed']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListWebhooks: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path: {
        orgId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Webhook endpoints, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "whk_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "url": "https://partner.example/hooks/oeuvre",
           *           "events": [
           *             "payout.paid"
           *           ],
           *           "status": "enabled",
           *           "disabledReason": "string",
           *           "previousSecretExpiresAt": "2026-11-22T10:15:30.123Z",
           *           "createdAt": "2026-11-22T10:15:30.123Z",
           *           "createdBy": "string",
           *           "updatedAt": "2026-11-22T10:15:30.123Z"
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "string",
           *         "hasMore": true
           *       }
           *     }
           */
          'application/json': components['schemas']['WebhookList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1CreateWebhook: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        orgId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        /**
         * @example {
         *       "url": "https://example.com/hooks/oeuvre",
         *       "events": [
         *         "payout.paid"
         *       ]
         *     }
         */
        'application/json': components['schemas']['CreateWebhookRequest']
      }
    }
    responses: {
      /** @description A webhook endpoint with its signing secret (shown once) */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "whk_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "url": "https://partner.example/hooks/oeuvre",
           *       "events": [
           *         "payout.paid"
           *       ],
           *       "status": "enabled",
           *       "disabledReason": "string",
           *       "previousSecretExpiresAt": "2026-11-22T10:15:30.123Z",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string",
           *       "updatedAt": "2026-11-22T10:15:30.123Z",
           *       "signingSecret": "whsec_01JD2YB6X8Q0W3M5N7P9R1T3V5"
           *     }
           */
          'application/json': components['schemas']['WebhookWithSecret']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetWebhook: {
    parameters: {
      query?: never
      header?: never
      path: {
        orgId: string
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A webhook endpoint registration */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "whk_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "url": "https://partner.example/hooks/oeuvre",
           *       "events": [
           *         "payout.paid"
           *       ],
           *       "status": "enabled",
           *       "disabledReason": "string",
           *       "previousSecretExpiresAt": "2026-11-22T10:15:30.123Z",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string",
           *       "updatedAt": "2026-11-22T10:15:30.123Z"
           *     }
           */
          'application/json': components['schemas']['Webhook']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1DeleteWebhook: {
    parameters: {
      query?: never
      header?: never
      path: {
        orgId: string
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description No content */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content?: never
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1DisableWebhook: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        orgId: string
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A webhook endpoint registration */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "whk_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "url": "https://partner.example/hooks/oeuvre",
           *       "events": [
           *         "payout.paid"
           *       ],
           *       "status": "enabled",
           *       "disabledReason": "string",
           *       "previousSecretExpiresAt": "2026-11-22T10:15:30.123Z",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string",
           *       "updatedAt": "2026-11-22T10:15:30.123Z"
           *     }
           */
          'application/json': components['schemas']['Webhook']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1EnableWebhook: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        orgId: string
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A webhook endpoint registration */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "whk_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "url": "https://partner.example/hooks/oeuvre",
           *       "events": [
           *         "payout.paid"
           *       ],
           *       "status": "enabled",
           *       "disabledReason": "string",
           *       "previousSecretExpiresAt": "2026-11-22T10:15:30.123Z",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string",
           *       "updatedAt": "2026-11-22T10:15:30.123Z"
           *     }
           */
          'application/json': components['schemas']['Webhook']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1RotateWebhookSecret: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        orgId: string
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A webhook endpoint with its signing secret (shown once) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "whk_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "url": "https://partner.example/hooks/oeuvre",
           *       "events": [
           *         "payout.paid"
           *       ],
           *       "status": "enabled",
           *       "disabledReason": "string",
           *       "previousSecretExpiresAt": "2026-11-22T10:15:30.123Z",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "createdBy": "string",
           *       "updatedAt": "2026-11-22T10:15:30.123Z",
           *       "signingSecret": "whsec_01JD2YB6X8Q0W3M5N7P9R1T3V5"
           *     }
           */
          'application/json': components['schemas']['WebhookWithSecret']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1TestWebhook: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        orgId: string
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description One event sent to one endpoint, with every attempt */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "whd_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "webhookId": "whk_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "eventId": "evt_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "type": "string",
           *       "status": "pending",
           *       "attemptCount": 1,
           *       "nextAttemptAt": "2026-11-22T10:15:30.123Z",
           *       "lastHttpStatus": 1,
           *       "lastError": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "updatedAt": "2026-11-22T10:15:30.123Z",
           *       "finishedAt": "2026-11-22T10:15:30.123Z",
           *       "attempts": [
           *         {
           *           "attempt": 1,
           *           "at": "2026-11-22T10:15:30.123Z",
           *           "trigger": "scheduled",
           *           "status": "succeeded",
           *           "httpStatus": 1,
           *           "latencyMs": 1,
           *           "requestBody": "string",
           *           "responseBody": "string",
           *           "error": "string",
           *           "address": "string"
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['WebhookDelivery']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListWebhookDeliveries: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        status?: 'pending' | 'succeeded' | 'failed' | 'blocked'
      }
      header?: never
      path: {
        orgId: string
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Deliveries to this endpoint, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "whd_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "webhookId": "whk_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "eventId": "evt_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "type": "string",
           *           "status": "pending",
           *           "attemptCount": 1,
           *           "nextAttemptAt": "2026-11-22T10:15:30.123Z",
           *           "lastHttpStatus": 1,
           *           "lastError": "string",
           *           "createdAt": "2026-11-22T10:15:30.123Z",
           *           "updatedAt": "2026-11-22T10:15:30.123Z",
           *           "finishedAt": "2026-11-22T10:15:30.123Z",
           *           "attempts": [
           *             {
           *               "attempt": 1,
           *               "at": "2026-11-22T10:15:30.123Z",
           *               "trigger": "scheduled",
           *               "status": "succeeded",
           *               "httpStatus": 1,
           *               "latencyMs": 1,
           *               "requestBody": "string",
           *               "responseBody": "string",
           *               "error": "string",
           *               "address": "string"
           *             }
           *           ]
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "string",
           *         "hasMore": true
           *       }
           *     }
           */
          'application/json': components['schemas']['WebhookDeliveryList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1RedeliverWebhookDelivery: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        orgId: string
        id: string
        deliveryId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description One event sent to one endpoint, with every attempt */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "whd_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "webhookId": "whk_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "eventId": "evt_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "type": "string",
           *       "status": "pending",
           *       "attemptCount": 1,
           *       "nextAttemptAt": "2026-11-22T10:15:30.123Z",
           *       "lastHttpStatus": 1,
           *       "lastError": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z",
           *       "updatedAt": "2026-11-22T10:15:30.123Z",
           *       "finishedAt": "2026-11-22T10:15:30.123Z",
           *       "attempts": [
           *         {
           *           "attempt": 1,
           *           "at": "2026-11-22T10:15:30.123Z",
           *           "trigger": "scheduled",
           *           "status": "succeeded",
           *           "httpStatus": 1,
           *           "latencyMs": 1,
           *           "requestBody": "string",
           *           "responseBody": "string",
           *           "error": "string",
           *           "address": "string"
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['WebhookDelivery']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1RedeliverFailedWebhookDeliveries: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        orgId: string
        id: string
      }
      cookie?: never
    }
    /** @description Failed deliveries created at or after this time are sent again */
    requestBody: {
      content: {
        /**
         * @example {
         *       "since": "2026-11-22T10:15:30.123Z"
         *     }
         */
        'application/json': components['schemas']['RedeliverFailedRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "redelivered": 1,
           *       "more": true
           *     }
           */
          'application/json': components['schemas']['RedeliverFailed']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetEvidenceKeys: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The public keys that sign seals (RFC 7517 JWKS, RFC 8037 OKP) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "keys": [
           *         {
           *           "kty": "OKP",
           *           "crv": "Ed25519",
           *           "x": "string",
           *           "kid": "string",
           *           "use": "sig",
           *           "alg": "EdDSA",
           *           "region": "string"
           *         }
           *       ],
           *       "region": "string"
           *     }
           */
          'application/json': components['schemas']['JsonWebKeySet']
        }
      }
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  listSeals: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Seals, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['SealList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getSeal: {
    parameters: {
      query?: never
      header?: never
      path: {
        sealId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A signed checkpoint of the org event log (RFC 6962 Merkle tree head) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Seal']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getSealConsistencyProof: {
    parameters: {
      query: {
        /** @description The older seal */
        from: string
      }
      header?: never
      path: {
        sealId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Proof that the newer seal extends the older one (nothing was rewritten) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['ConsistencyProof']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getOrgEventInclusionProof: {
    parameters: {
      query?: {
        /** @description The seal to prove against; default the newest */
        seal?: string
      }
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description RFC 6962 / RFC 9162 inclusion proof of one event in a seal */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['InclusionProof']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1ListSeals: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
      }
      header?: never
      path: {
        orgId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Seals, newest first */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "seal_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "orgId": "org_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *           "region": "string",
           *           "treeSize": 1,
           *           "rootHash": "0000000000000000000000000000000000000000000000000000000000000000",
           *           "checkpoint": "string",
           *           "signature": "string",
           *           "keyId": "string",
           *           "createdAt": "2026-11-22T10:15:30.123Z"
           *         }
           *       ],
           *       "pagination": {
           *         "cursor": "string",
           *         "hasMore": true
           *       }
           *     }
           */
          'application/json': components['schemas']['SealList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetSeal: {
    parameters: {
      query?: never
      header?: never
      path: {
        orgId: string
        sealId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A signed checkpoint of the org event log (RFC 6962 Merkle tree head) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "id": "seal_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "orgId": "org_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "region": "string",
           *       "treeSize": 1,
           *       "rootHash": "0000000000000000000000000000000000000000000000000000000000000000",
           *       "checkpoint": "string",
           *       "signature": "string",
           *       "keyId": "string",
           *       "createdAt": "2026-11-22T10:15:30.123Z"
           *     }
           */
          'application/json': components['schemas']['Seal']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetSealConsistencyProof: {
    parameters: {
      query: {
        /** @description The older seal */
        from: string
      }
      header?: never
      path: {
        orgId: string
        sealId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Proof that the newer seal extends the older one (nothing was rewritten) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "fromSealId": "seal_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "toSealId": "seal_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "fromSize": 1,
           *       "toSize": 1,
           *       "fromRoot": "0000000000000000000000000000000000000000000000000000000000000000",
           *       "toRoot": "0000000000000000000000000000000000000000000000000000000000000000",
           *       "proof": [
           *         "0000000000000000000000000000000000000000000000000000000000000000"
           *       ]
           *     }
           */
          'application/json': components['schemas']['ConsistencyProof']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  v1GetOrgEventInclusionProof: {
    parameters: {
      query?: {
        /** @description The seal to prove against; default the newest */
        seal?: string
      }
      header?: never
      path: {
        orgId: string
        eventId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description RFC 6962 / RFC 9162 inclusion proof of one event in a seal */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          /**
           * @example {
           *       "sealId": "seal_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "eventId": "evt_01JD2YB6X8Q0W3M5N7P9R1T3V5",
           *       "eventHash": "sha256:0000000000000000000000000000000000000000000000000000000000000000",
           *       "leafIndex": 1,
           *       "treeSize": 1,
           *       "rootHash": "0000000000000000000000000000000000000000000000000000000000000000",
           *       "auditPath": [
           *         "0000000000000000000000000000000000000000000000000000000000000000"
           *       ]
           *     }
           */
          'application/json': components['schemas']['InclusionProof']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      403: components['responses']['Forbidden']
      404: components['responses']['NotFound']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  partnerSignUp: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['PartnerSignUpRequest']
      }
    }
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PartnerSignUp']
        }
      }
      400: components['responses']['BadRequest']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      421: components['responses']['MisdirectedRequest']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  partnerSignUpWithCookie: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['PartnerSignUpRequest']
      }
    }
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PartnerCookieSignUp']
        }
      }
      400: components['responses']['BadRequest']
      403: components['responses']['Forbidden']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      421: components['responses']['MisdirectedRequest']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  partnerApply: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['PartnerApplyRequest']
      }
    }
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PartnerApply']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      421: components['responses']['MisdirectedRequest']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getPartner: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Partner']
        }
      }
      401: components['responses']['Unauthorized']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  submitPartnerApplication: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['PartnerApplication']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Partner']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  getPartnerAgreement: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PartnerAgreement']
        }
      }
      401: components['responses']['Unauthorized']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  signPartnerAgreement: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['SignPartnerAgreementRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Partner']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  requestPartnerReview: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PartnerReviewRequest']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  operatorListPartners: {
    parameters: {
      query?: {
        /** @description Page size, 1..100 (default 25) */
        limit?: number
        /** @description Opaque cursor from the previous page */
        cursor?: string
        /** @description Where the partner is in the program */
        status?: 'sandbox' | 'in_review' | 'changes_requested' | 'live' | 'rejected' | 'suspended'
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description A page of records */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PartnerList']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  operatorGetPartner: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OperatorPartner']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      404: components['responses']['NotFound']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  operatorApprovePartner: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    /** @description Platform integrators: their production limits (both required) */
    requestBody: {
      content: {
        'application/json': components['schemas']['ApprovePartnerRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OperatorPartner']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  operatorRequestPartnerChanges: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['OperatorReasonRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OperatorPartner']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  operatorRejectPartner: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['OperatorReasonRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OperatorPartner']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  operatorSuspendPartner: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['OperatorReasonRequest']
      }
    }
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OperatorPartner']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
  operatorResumePartner: {
    parameters: {
      query?: never
      header?: {
        /** @description Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path). */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey']
      }
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id']
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit']
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining']
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset']
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed']
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['OperatorPartner']
        }
      }
      400: components['responses']['BadRequest']
      401: components['responses']['Unauthorized']
      404: components['responses']['NotFound']
      409: components['responses']['Conflict']
      413: components['responses']['ContentTooLarge']
      415: components['responses']['UnsupportedMediaType']
      422: components['responses']['UnprocessableContent']
      429: components['responses']['TooManyRequests']
      500: components['responses']['InternalServerError']
      503: components['responses']['ServiceUnavailable']
    }
  }
}
