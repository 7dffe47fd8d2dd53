import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { buildTestApp, type TestApp, type TestAppOptions } from './helpers.js'
import { openIsolatedDatabase } from './webhook-helpers.js'

/** An email as the receiver got it: the envelope and the parsed message. */
export interface ReceivedEmail {
  from: string
  to: string[]
  subject: string
  text: string
  html: string
  headers: ParsedMail['headers']
  raw: string
}

/** How the receiver answers the next message: accept it, or refuse it with an SMTP reply. */
type Answer = 'accept' | { code: number; message: string }

/**
 * A real SMTP server on loopback (the smtp-server package), as a mail provider would be: it
 * records every message it accepts, and can be told to refuse the next ones (451 for a
 * temporary failure, 550 for a permanent one).
 */
export class SmtpReceiver {
  readonly received: ReceivedEmail[] = []
  /** Messages refused so far, with the code given. */
  readonly refused: number[] = []
  private readonly answers: Answer[] = []
  private readonly server: SMTPServer

  private constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const answer = this.answers.shift() ?? 'accept'
          if (answer !== 'accept') {
            this.refused.push(answer.code)
            return callback(Object.assign(new Error(answer.message), { responseCode: answer.code }))
          }
          const raw = Buffer.concat(chunks).toString('utf8')
          simpleParser(raw).then(
            (parsed) => {
              this.received.push({
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                headers: parsed.headers,
                raw,
              })
              callback()
            },
            (error: Error) => callback(error),
          )
        })
      },
    })
  }

  static async start(): Promise<SmtpReceiver> {
    const receiver = new SmtpReceiver()
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve))
    return receiver
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`
  }

  /** Refuses the next messages with these replies (e.g. 451, 550), then accepts again. */
  refuse(...codes: number[]): void {
    for (const code of codes)
      this.answers.push({ code, message: code >= 500 ? 'No such user here' : 'Try again later' })
  }

  to(address: string): ReceivedEmail[] {
    return this.received.filter((email) => email.to.includes(address))
  }

  clear(): void {
    this.received.length = 0
    this.refused.length = 0
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

/** The app sending its email to a receiver of its own. */
export interface MailTestApp extends TestApp {
  receiver: SmtpReceiver
  /** Runs the worker's email jobs (password-reset requests, the outbox) until nothing is due now. */
  deliver(): Promise<void>
}

/**
 * The app with SMTP_URL at a real receiver on loopback, on a database of its own: the outbox
 * job sends every due email, and on a PostgreSQL run other files queue theirs in the shared one.
 */
export async function buildMailTestApp(options: TestAppOptions = {}): Promise<MailTestApp> {
  const receiver = await SmtpReceiver.start()
  const isolated = await openIsolatedDatabase()
  const t = await buildTestApp({
    ...options,
    db: isolated.db,
    env: { SMTP_URL: receiver.url, MAIL_FROM: 'Oeuvre <no-reply@oeuvre.test>', ...options.env },
  })
  const jobs = t.services.jobs.filter((job) => job.name === 'password-resets' || job.name === 'email-outbox')
  if (jobs.length !== 2) throw new Error('the email jobs are missing from the worker')
  return {
    ...t,
    receiver,
    async deliver() {
      for (let round = 0; round < 20; round += 1) {
        let done = 0
        for (const job of jobs) done += await job.run()
        if (done === 0) return
      }
    },
    async close() {
      await t.close()
      await isolated.db.close()
      await isolated.drop()
      await receiver.close()
    },
  }
}
