import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

export const SECRETS_KEY_FILE = 'secrets.key'

/** SECRETS_KEY as 64 hex characters or base64 (config.ts has checked the form). */
export function decodeSecretsKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64')
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes')
  return key
}

/**
 * The key that encrypts stored signing secrets: SECRETS_KEY when set (required when
 * several nodes share one database), else DATA_DIR/secrets.key, generated on first run.
 */
export async function loadSecretsKey(options: { secretsKey: string | null; dataDir: string }): Promise<Buffer> {
  if (options.secretsKey) return decodeSecretsKey(options.secretsKey)
  const file = path.join(options.dataDir, SECRETS_KEY_FILE)
  try {
    return decodeSecretsKey((await readFile(file, 'utf8')).trim())
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(options.dataDir, { recursive: true })
  try {
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 })
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return decodeSecretsKey((await readFile(file, 'utf8')).trim())
}
