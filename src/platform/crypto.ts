import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

export function sha256Hex(input: string | Buffer): string {
  return createHash('sha256').update(input).digest('hex')
}

/** Only this hash of a bearer secret (session, access token, client secret) is stored. */
export function hashSecret(secret: string): string {
  return sha256Hex(secret)
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

// scrypt N=2^15, r=8, p=1: the OWASP-recommended floor; about 50 ms on one core.
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }
const SCRYPT_TEST = { N: 1 << 10, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }

function scryptAsync(password: string, salt: Buffer, params: typeof SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, 32, params, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

export interface PasswordHasher {
  hash(password: string): Promise<string>
  verify(password: string, stored: string): Promise<boolean>
}

/** Stored form: scrypt$N$r$p$salt$key (base64url). `fast` lowers the cost for tests only. */
export function createPasswordHasher(options: { fast?: boolean } = {}): PasswordHasher {
  const params = options.fast ? SCRYPT_TEST : SCRYPT
  return {
    async hash(password) {
      const salt = randomBytes(16)
      const key = await scryptAsync(password, salt, params)
      return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$')
    },
    async verify(password, stored) {
      const [scheme, n, r, p, salt, key] = stored.split('$')
      if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false
      const derived = await scryptAsync(password, Buffer.from(salt, 'base64url'), {
        N: Number(n),
        r: Number(r),
        p: Number(p),
        maxmem: SCRYPT.maxmem,
      })
      const expected = Buffer.from(key, 'base64url')
      return derived.length === expected.length && timingSafeEqual(derived, expected)
    },
  }
}

/** AES-256-GCM for secrets that must be usable later (webhook signing secrets). */
export interface SecretBox {
  seal(plaintext: string): string
  open(sealed: string): string
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('secret box key must be 32 bytes')
  return {
    seal(plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return [
        'v1',
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join('.')
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.')
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unrecognised sealed secret')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
    },
  }
}
