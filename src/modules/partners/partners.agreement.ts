import { sha256Hex } from '../../platform/crypto.js'

/** The partner agreement in force: its text is what a signature's SHA-256 binds to. */
export const AGREEMENT_VERSION = '2026-11'

export const AGREEMENT_TEXT = `Oeuvre Partner Agreement, version ${AGREEMENT_VERSION}

1. Access. Oeuvre grants the partner access to its API with the credentials it issues. Sandbox
   credentials hold test data only; production credentials are issued once Oeuvre has reviewed
   the partner's integration.
2. Data. The partner uses the data it reads only for the orgs that authorised it, keeps it
   secure, and deletes it when that authorisation ends.
3. Limits. The partner keeps to the rate limits of its tier and does not work around them.
4. Suspension. Oeuvre may suspend production credentials at once where these terms are broken,
   and says why.
5. Region. The partner's data stays in the region it chose at sign-up.
`

export const AGREEMENT_SHA256 = sha256Hex(AGREEMENT_TEXT)
