import { ConfigError } from './config-error.js'

/** Where email goes: an SMTP server, or files under DATA_DIR/mail/ (development). */
export interface MailConfig {
  /** smtp:// or smtps:// (user and password in the URL); null writes each email to DATA_DIR/mail/<id>.eml. */
  readonly smtpUrl: string | null
  /** The From header: MAIL_FROM, default `no-reply@<PUBLIC_URL's host>`. */
  readonly from: string
  /** DKIM signing (nodemailer's): all three of MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR, MAIL_DKIM_PRIVATE_KEY, or none. */
  readonly dkim: { readonly domainName: string; readonly keySelector: string; readonly privateKey: string } | null
}

type Env = Record<string, string | undefined>

export function readMailConfig(env: Env, publicUrl: string): MailConfig {
  const smtpUrl = env.SMTP_URL || null
  if (smtpUrl !== null) {
    let parsed: URL
    try {
      parsed = new URL(smtpUrl)
    } catch {
      throw new ConfigError('SMTP_URL', 'is not a valid URL')
    }
    if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:')
      throw new ConfigError('SMTP_URL', `must use smtp: or smtps:, got ${parsed.protocol}`)
  }
  const from = env.MAIL_FROM || `no-reply@${new URL(publicUrl).hostname}`
  if (!/^[^\r\n]*@[^\r\n@]+>?$/.test(from))
    throw new ConfigError('MAIL_FROM', `must be an address (name@host, or "Name <name@host>"), got "${from}"`)
  const dkimParts = [env.MAIL_DKIM_DOMAIN, env.MAIL_DKIM_SELECTOR, env.MAIL_DKIM_PRIVATE_KEY].filter(Boolean)
  if (dkimParts.length !== 0 && dkimParts.length !== 3)
    throw new ConfigError(
      'MAIL_DKIM_DOMAIN',
      'DKIM needs MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR and MAIL_DKIM_PRIVATE_KEY together',
    )
  const privateKey = env.MAIL_DKIM_PRIVATE_KEY?.replace(/\\n/g, '\n') ?? ''
  if (dkimParts.length === 3 && !privateKey.includes('PRIVATE KEY'))
    throw new ConfigError('MAIL_DKIM_PRIVATE_KEY', 'must be a PEM private key (newlines may be written \\n)')
  return Object.freeze({
    smtpUrl,
    from,
    dkim:
      dkimParts.length === 3
        ? Object.freeze({ domainName: env.MAIL_DKIM_DOMAIN!, keySelector: env.MAIL_DKIM_SELECTOR!, privateKey })
        : null,
  })
}
