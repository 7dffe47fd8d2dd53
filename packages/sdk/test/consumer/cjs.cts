// Compiled by test/package.test.ts against the built package, as a CommonJS consumer sees it.
import { Oeuvre, verifyInclusion, type InclusionProof, type Seal } from '@oeuvre/sdk'

export function client(baseUrl: string): Oeuvre {
  return new Oeuvre({ baseUrl, clientId: 'cli_x', clientSecret: 'cs_test_x', scopes: ['events:read'] })
}

export const proves = (proof: InclusionProof, seal: Seal): Promise<boolean> => verifyInclusion(proof, seal)
