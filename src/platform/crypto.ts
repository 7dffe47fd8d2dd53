import { AppError } from './errors.js'
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
  /**
   * Whether `password` matches `stored`. With no stored hash (no such account, or one without a
   * password) it checks against a hash of the same cost and answers false: the answer takes as
   * long either way, so its timing does not tell whether an account exists.
   */
  verify(password: string, stored: string | null): Promise<boolean>
}

/** Hashes computed at once, and how many may wait for a turn before a request is refused (503). */
export interface HashingBounds {
  concurrency: number
  waiting: number
}

const DEFAULT_BOUNDS: HashingBounds = { concurrency: 1, waiting: 32 }

/**
 * A queue that lets `concurrency` tasks run at once and `waiting` wait: a burst of sign-ins
 * costs the process one or two cores of hashing, never all of it, and beyond the queue the
 * request is refused at once instead of piling up.
 */
function boundedQueue(bounds: HashingBounds) {
  let running = 0
  const queue: (() => void)[] = []
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= bounds.concurrency) {
      if (queue.length >= bounds.waiting) {
        throw new AppError('service_unavailable', 'Too many sign-ins at once; try again in a moment', {
          headers: { 'retry-after': '1' },
        })
      }
      await new Promise<void>((resolve) => queue.push(resolve))
    } else running += 1
    try {
      return await task()
    } finally {
      // The turn passes straight to the next waiting task (running stays counted for it).
      const next = queue.shift()
      if (next) next()
      else running -= 1
    }
  }
}

/** Stored form: scrypt$N$r$p$salt$key (base64url). `fast` lowers the cost for tests only. */
export function createPasswordHasher(options: { fast?: boolean; bounds?: HashingBounds } = {}): PasswordHasher {
  const params = options.fast ? SCRYPT_TEST : SCRYPT
  const turn = boundedQueue(options.bounds ?? DEFAULT_BOUNDS)
  const hash = async (password: string) => {
    const salt = randomBytes(16)
    const key = await scryptAsync(password, salt, params)
    return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$')
  }
  async function check(password: string, stored: string): Promise<boolean> {
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
  }
  // Made once, ahead of the first unknown email, so that one costs no more than the others.
  const dummy = hash(randomBytes(16).toString('base64url'))
  dummy.catch(() => undefined)
  return {
    hash: (password) => turn(() => hash(password)),
    async verify(password, stored) {
      if (stored !== null) return turn(() => check(password, stored))
      const unusable = await dummy
      await turn(() => check(password, unusable))
      return false
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
