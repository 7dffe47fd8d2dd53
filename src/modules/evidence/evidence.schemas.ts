import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { Timestamp } from '../../platform/timestamp.js'

const Hex32 = Type.String({ pattern: '^[0-9a-f]{64}$', description: '32 bytes, lowercase hex' })
const SealId = Type.String({ pattern: idPattern('seal') })

export const SealSchema = component(
  'Seal',
  Type.Object(
    {
      id: SealId,
      orgId: Type.String({ pattern: idPattern('org') }),
      region: Type.String({ description: 'The region whose deployment keeps the org and signed the seal' }),
      treeSize: Type.Integer({ minimum: 1, description: 'The seal covers events 1..treeSize' }),
      rootHash: Hex32,
      checkpoint: Type.String({ description: 'oeuvre/<orgId>\\n<treeSize>\\n<base64 root>\\n: the signed text' }),
      signature: Type.String({ description: 'Ed25519 over the UTF-8 checkpoint, base64' }),
      keyId: Type.String({ description: 'kid of the key in /v1/evidence/keys' }),
      createdAt: Timestamp,
    },
    { description: 'A signed checkpoint of the org event log (RFC 6962 Merkle tree head)' },
  ),
)
export type Seal = Static<typeof SealSchema>

export const SealList = ListEnvelope(SealSchema, 'Seals, newest first')
export const SealListQuery = ListQuery({})
export type SealListQuery = Static<typeof SealListQuery>

export const InclusionProofSchema = component(
  'InclusionProof',
  Type.Object(
    {
      sealId: SealId,
      eventId: Type.String({ pattern: idPattern('evt') }),
      eventHash: Type.String({
        pattern: '^sha256:[0-9a-f]{64}$',
        description: 'The event hash: the leaf is SHA-256(0x00 || its 32 bytes)',
      }),
      leafIndex: Type.Integer({ minimum: 0, description: 'sequence - 1' }),
      treeSize: Type.Integer({ minimum: 1 }),
      rootHash: Hex32,
      auditPath: Type.Array(Hex32, { description: 'RFC 9162 inclusion path, leaf to root' }),
    },
    { description: 'RFC 6962 / RFC 9162 inclusion proof of one event in a seal' },
  ),
)
export type InclusionProof = Static<typeof InclusionProofSchema>

export const ConsistencyProofSchema = component(
  'ConsistencyProof',
  Type.Object(
    {
      fromSealId: SealId,
      toSealId: SealId,
      fromSize: Type.Integer({ minimum: 1 }),
      toSize: Type.Integer({ minimum: 1 }),
      fromRoot: Hex32,
      toRoot: Hex32,
      proof: Type.Array(Hex32, { description: 'RFC 9162 consistency proof' }),
    },
    { description: 'Proof that the newer seal extends the older one (nothing was rewritten)' },
  ),
)
export type ConsistencyProof = Static<typeof ConsistencyProofSchema>

export const ProofQuery = Type.Object(
  { seal: Type.Optional(Type.String({ maxLength: 64, description: 'The seal to prove against; default the newest' })) },
  { additionalProperties: false },
)
export const ConsistencyQuery = Type.Object(
  { from: Type.String({ maxLength: 64, description: 'The older seal' }) },
  { additionalProperties: false },
)

export const JwksSchema = component(
  'JsonWebKeySet',
  Type.Object(
    {
      keys: Type.Array(
        Type.Object({
          kty: Type.Literal('OKP'),
          crv: Type.Literal('Ed25519'),
          x: Type.String(),
          kid: Type.String(),
          use: Type.Literal('sig'),
          alg: Type.Literal('EdDSA'),
          region: Type.String({ description: 'The region whose deployment signs with this key' }),
        }),
      ),
      region: Type.String({ description: 'The region this deployment serves' }),
    },
    { description: 'The public keys that sign seals (RFC 7517 JWKS, RFC 8037 OKP)' },
  ),
)
export type Jwks = Static<typeof JwksSchema>
