import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

export interface PublicJwk {
  kty: 'OKP'
  crv: 'Ed25519'
  x: string
  kid: string
  use: 'sig'
  alg: 'EdDSA'
}

/** The service's Ed25519 checkpoint key. */
export interface EvidenceSigner {
  /** RFC 7638 JWK thumbprint of the public key: stable for as long as the key is. */
  readonly keyId: string
  readonly jwk: PublicJwk
  /** Base64 Ed25519 signature over the UTF-8 bytes of `text`. */
  sign(text: string): string
  verify(text: string, signature: string): boolean
}

export function createEvidenceSigner(privateKey: KeyObject): EvidenceSigner {
  const publicKey = createPublicKey(privateKey)
  const x = publicKey.export({ format: 'jwk' }).x
  if (typeof x !== 'string' || privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error('the evidence key must be Ed25519')
  // RFC 7638: SHA-256 over the required members in lexicographic order, no whitespace.
  const keyId = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url')
  return {
    keyId,
    jwk: { kty: 'OKP', crv: 'Ed25519', x, kid: keyId, use: 'sig', alg: 'EdDSA' },
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64'),
    verify: (text, signature) => {
      try {
        return verify(null, Buffer.from(text, 'utf8'), publicKey, Buffer.from(signature, 'base64'))
      } catch {
        return false
      }
    },
  }
}

/** A key that lives as long as the process (tests, throwaway runs). */
export function ephemeralEvidenceSigner(): EvidenceSigner {
  return createEvidenceSigner(generateKeyPairSync('ed25519').privateKey)
}

// PKCS#8 header of an Ed25519 private key; the 32-byte seed follows it.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')

/** The Ed25519 key whose 32-byte seed is `seed`. */
export function signerFromSeed(seed: Buffer): EvidenceSigner {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes')
  return createEvidenceSigner(
    createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' }),
  )
}

/** HKDF with its own label: the encryption key and the signing key stay independent. */
export function signerFromSecretsKey(secretsKey: Buffer): EvidenceSigner {
  return signerFromSeed(Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'oeuvre evidence ed25519 v1', 32)))
}

export const EVIDENCE_KEY_FILE = 'evidence-ed25519.pem'

/**
 * The deployment's key: derived from SECRETS_KEY when it is set (every node of a
 * deployment shares it, so they sign with the same key), else read from
 * DATA_DIR/evidence-ed25519.pem, generated there on first run.
 */
export async function loadEvidenceSigner(options: {
  secretsKey: Buffer | null
  dataDir: string
}): Promise<EvidenceSigner> {
  if (options.secretsKey) return signerFromSecretsKey(options.secretsKey)
  const file = path.join(options.dataDir, EVIDENCE_KEY_FILE)
  try {
    return createEvidenceSigner(createPrivateKey(await readFile(file, 'utf8')))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(options.dataDir, { recursive: true })
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()
  try {
    await writeFile(file, pem, { flag: 'wx', mode: 0o600 })
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return createEvidenceSigner(createPrivateKey(await readFile(file, 'utf8')))
}
