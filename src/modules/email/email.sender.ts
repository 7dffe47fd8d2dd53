import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import type { MailConfig } from '../../config-mail.js'
import type { RenderedEmail } from './email.templates.js'

/** One email as it goes out. */
export interface OutgoingEmail extends RenderedEmail {
  id: string
  to: { address: string; name: string | null }
  replyTo?: string | null
  /** The From header for this email (a white-label brand's support address), else MAIL_FROM. */
  from?: string | null
}

/** What happened to one send: sent (with the server's message id), or refused for now or for good. */
export type SendResult = { sent: true; messageId: string } | { sent: false; permanent: boolean; reason: string }

export interface EmailSender {
  send(email: OutgoingEmail): Promise<SendResult>
  close(): void
}

/**
 * Over SMTP (`SMTP_URL`) with nodemailer, DKIM-signed when configured; without it, each email
 * is written to `mailDir/<id>.eml` as the server would have received it, and its path logged.
 */
export function createEmailSender(
  mail: MailConfig,
  options: { mailDir: string; log: (path: string) => void },
): EmailSender {
  if (mail.smtpUrl === null) return fileSender(mail, options)
  const url = new URL(mail.smtpUrl)
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    // smtp://...?requireTLS=true refuses a server that does not offer STARTTLS.
    requireTLS: url.searchParams.get('requireTLS') === 'true',
    ...(mail.dkim ? { dkim: mail.dkim } : {}),
    // A server that does not answer is a temporary failure, tried again later.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  })
  return {
    async send(email) {
      try {
        const info = await transport.sendMail(message(mail, email))
        return { sent: true, messageId: String(info.messageId) }
      } catch (error) {
        return refused(error)
      }
    },
    close: () => transport.close(),
  }
}

function message(mail: MailConfig, email: OutgoingEmail): SendMailOptions {
  return {
    from: email.from ?? mail.from,
    to: email.to.name ? { name: email.to.name, address: email.to.address } : email.to.address,
    ...(email.replyTo ? { replyTo: email.replyTo } : {}),
    subject: email.subject,
    text: email.text,
    html: email.html,
    headers: { 'X-Oeuvre-Email-Id': email.id },
  }
}

function fileSender(mail: MailConfig, options: { mailDir: string; log: (path: string) => void }): EmailSender {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
    ...(mail.dkim ? { dkim: mail.dkim } : {}),
  })
  return {
    async send(email) {
      const info = await transport.sendMail(message(mail, email))
      await mkdir(options.mailDir, { recursive: true })
      const file = path.join(options.mailDir, `${email.id}.eml`)
      await writeFile(file, info.message as Buffer)
      options.log(file)
      return { sent: true, messageId: String(info.messageId) }
    },
    close: () => transport.close(),
  }
}

/** A refusal: an SMTP 5xx reply is permanent; a 4xx reply or a connection that failed is tried again. */
export function refused(error: unknown): SendResult {
  const { responseCode, response, code, message } = (error ?? {}) as {
    responseCode?: number
    response?: string
    code?: string
    message?: string
  }
  const reason = (response ?? message ?? String(error)).slice(0, 500)
  if (typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600)
    return { sent: false, permanent: true, reason }
  return { sent: false, permanent: false, reason: code && !reason.includes(code) ? `${code}: ${reason}` : reason }
}
