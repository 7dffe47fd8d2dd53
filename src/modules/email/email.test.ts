import { mkdtemp, readdir, readFile, rm, writeFile, cp } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../config.js'
import { MINUTE } from '../../platform/clock.js'
import { createSecretBox } from '../../platform/crypto.js'
import { buildTestApp, type TestApp } from '../../../test/helpers.js'
import { SmtpReceiver } from '../../../test/smtp-helpers.js'
import { openIsolatedDatabase } from '../../../test/webhook-helpers.js'
import { EMAIL_KINDS, sampleVariables, type EmailKind } from './email.kinds.js'
import { createEmailModule, type EmailModule } from './email.module.js'
import { DEFAULT_TEMPLATE_DIR, loadEmailTemplates, TemplateError } from './email.templates.js'

let t: TestApp
let receiver: SmtpReceiver
let email: EmailModule
let dataDir: string
const box = createSecretBox(randomBytes(32))

let dropDatabase: () => Promise<void>

beforeAll(async () => {
  // The outbox job sends every due email: on a PostgreSQL run, other files queue theirs in the shared database.
  const isolated = await openIsolatedDatabase()
  dropDatabase = isolated.drop
  t = await buildTestApp({ db: isolated.db })
  receiver = await SmtpReceiver.start()
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-email-'))
  const config = loadConfig({ SMTP_URL: receiver.url, MAIL_FROM: 'Oeuvre <no-reply@oeuvre.test>', DATA_DIR: dataDir })
  email = createEmailModule({ config, db: t.db, clock: t.clock, ids: t.services.ids, box })
})
afterAll(async () => {
  email.close()
  await receiver.close()
  await t.close()
  await t.db.close()
  await dropDatabase()
  await rm(dataDir, { recursive: true, force: true })
})
beforeEach(() => receiver.clear())

const job = () => email.jobs[0]!
/** The worker's rounds until nothing is due now. */
async function sendDue(): Promise<void> {
  for (let round = 0; round < 20 && (await job().run()) > 0; round += 1);
}
const enqueue = (kind: EmailKind, to: string, variables: Record<string, unknown> = sampleVariables(kind)) =>
  t.db.globalTx((tx) => email.outbox.enqueue(tx, { kind, to: { address: to, name: 'Ada' }, variables }))
const row = (id: string) =>
  t.db.global.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe('the email outbox over a real SMTP server', () => {
  it('sends every kind with its subject, a text part and an HTML part, from MAIL_FROM', async () => {
    for (const kind of EMAIL_KINDS) await enqueue(kind, `${kind}@example.com`)
    await sendDue()
    expect(receiver.received).toHaveLength(EMAIL_KINDS.length)
    for (const kind of EMAIL_KINDS) {
      const [got] = receiver.to(`${kind}@example.com`)
      expect(got?.subject, kind).toMatch(/\S/)
      expect(got?.text, kind).toContain('Oeuvre')
      expect(got?.html, kind).toMatch(/^<!doctype html>/i)
      expect(got?.from).toBe('no-reply@oeuvre.test')
      expect(got?.html, kind).not.toMatch(/<script|<img|https?:\/\/[^"]*\.(png|jpg|gif|css|js)\b/i)
    }
    const invitation = receiver.to('invitation@example.com')[0]!
    expect(invitation.subject).toBe('Ada Lovelace invited you to Demo Label on Oeuvre')
    expect(invitation.text).toContain('https://app.oeuvre.example/invitations/accept?token=')
  })

  it('escapes a variable in the HTML part and keeps it as written in the text part and the subject', async () => {
    const hostile = '<script>alert("x")</script> & Sons'
    await enqueue('invitation', 'escape@example.com', { ...sampleVariables('invitation'), org: { name: hostile } })
    await sendDue()
    const [got] = receiver.to('escape@example.com')
    expect(got!.html).not.toContain('<script>')
    expect(got!.raw).toContain('&lt;script&gt;')
    expect(got!.text).toContain(hostile)
    expect(got!.subject).toContain(hostile)
  })

  it('sends nothing for a write that rolls back, and what its write committed once', async () => {
    await expect(
      t.db.globalTx(async (tx) => {
        await email.outbox.enqueue(tx, {
          kind: 'password_changed',
          to: { address: 'rolled-back@example.com' },
          variables: sampleVariables('password_changed'),
        })
        throw new Error('the write failed')
      }),
    ).rejects.toThrow('the write failed')
    await enqueue('password_changed', 'committed@example.com')
    await sendDue()
    await sendDue()
    expect(receiver.to('rolled-back@example.com')).toHaveLength(0)
    expect(receiver.to('committed@example.com')).toHaveLength(1)
  })

  it('tries a temporary refusal (451) again after its wait, and sends the email once', async () => {
    receiver.refuse(451)
    const id = await enqueue('password_reset', 'retry@example.com')
    await sendDue()
    expect(receiver.refused).toEqual([451])
    expect(receiver.to('retry@example.com')).toHaveLength(0)
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1 })
    expect((await row(id)).last_error).toContain('Try again later')
    // Not due before its wait (a minute).
    await sendDue()
    expect(receiver.to('retry@example.com')).toHaveLength(0)
    t.clock.advance(MINUTE)
    await sendDue()
    expect(receiver.to('retry@example.com')).toHaveLength(1)
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2, due_at: null })
    t.clock.advance(60 * MINUTE)
    await sendDue()
    expect(receiver.to('retry@example.com')).toHaveLength(1)
  })

  it('gives a permanent refusal (550) up at once, with the reason, and never tries it again', async () => {
    receiver.refuse(550)
    const id = await enqueue('password_reset', 'nobody@example.com')
    await sendDue()
    const failed = await row(id)
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, due_at: null })
    expect(failed.last_error).toContain('No such user here')
    t.clock.advance(24 * 60 * MINUTE)
    await sendDue()
    expect(receiver.refused).toEqual([550])
    expect(receiver.received).toHaveLength(0)
  })

  it('sends each email once when two workers run at once', async () => {
    const ids: string[] = []
    for (let i = 0; i < 30; i += 1) ids.push(await enqueue('password_changed', `pair-${i}@example.com`))
    const other = createEmailModule({
      config: loadConfig({ SMTP_URL: receiver.url, DATA_DIR: dataDir }),
      db: t.db,
      clock: t.clock,
      ids: t.services.ids,
      box,
    })
    try {
      const drain = async (module: EmailModule) => {
        while ((await module.jobs[0]!.run()) > 0);
      }
      await Promise.all([drain(email), drain(other)])
    } finally {
      other.close()
    }
    for (let i = 0; i < 30; i += 1) expect(receiver.to(`pair-${i}@example.com`)).toHaveLength(1)
    expect(receiver.received).toHaveLength(30)
  })

  it('keeps a secret variable (a reset link) sealed at rest, and erases it once the email is sent', async () => {
    const link = 'https://app.oeuvre.example/reset-password?token=pwr_THE_SECRET_TOKEN'
    const { link: _sample, ...rest } = sampleVariables('password_reset')
    const id = await t.db.globalTx((tx) =>
      email.outbox.enqueue(tx, {
        kind: 'password_reset',
        to: { address: 'sealed@example.com' },
        variables: rest,
        secret: { link },
      }),
    )
    const stored = await row(id)
    expect(JSON.stringify(stored)).not.toContain('THE_SECRET_TOKEN')
    expect(stored.sealed_variables).toMatch(/^v1\./)
    await sendDue()
    expect(receiver.to('sealed@example.com')[0]!.text).toContain(link)
    expect((await row(id)).sealed_variables).toBeNull()
  })

  it('counts sent, retried and failed by kind for /metrics', async () => {
    const counted = email.counts.list()
    const of = (kind: string, outcome: string) =>
      counted.find((entry) => entry.kind === kind && entry.outcome === outcome)?.count ?? 0
    expect(of('password_reset', 'retried')).toBeGreaterThanOrEqual(1)
    expect(of('password_reset', 'failed')).toBeGreaterThanOrEqual(1)
    expect(of('invitation', 'sent')).toBeGreaterThanOrEqual(2)
  })
})

describe('without SMTP_URL', () => {
  it('writes each email to DATA_DIR/mail/<id>.eml, and says where', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-mail-files-'))
    const logged: string[] = []
    const files = createEmailModule({
      config: loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'http://127.0.0.1:3000' }),
      db: t.db,
      clock: t.clock,
      ids: t.services.ids,
      box,
      log: { info: (fields: { file?: string }) => void logged.push(String(fields.file)) } as never,
    })
    try {
      while ((await job().run()) > 0);
      const id = await t.db.globalTx((tx) =>
        files.outbox.enqueue(tx, {
          kind: 'password_changed',
          to: { address: 'file@example.com' },
          variables: sampleVariables('password_changed'),
        }),
      )
      while ((await files.jobs[0]!.run()) > 0);
      const written = await readdir(path.join(dir, 'mail'))
      expect(written).toEqual([`${id}.eml`])
      const text = await readFile(path.join(dir, 'mail', `${id}.eml`), 'utf8')
      expect(text).toContain('To: file@example.com')
      expect(text).toContain('From: no-reply@127.0.0.1')
      expect(text).toMatch(/Subject: Your Oeuvre password was changed/)
      expect(logged).toEqual([path.join(dir, 'mail', `${id}.eml`)])
    } finally {
      files.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('templates', () => {
  async function templatesWith(file: string, source: string) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-templates-'))
    await cp(DEFAULT_TEMPLATE_DIR, dir, { recursive: true })
    await writeFile(path.join(dir, file), source)
    try {
      return () => loadEmailTemplates({ dir })
    } finally {
      setTimeout(() => void rm(dir, { recursive: true, force: true }), 5_000).unref()
    }
  }

  it('refuse at load a variable the kind does not offer, naming the file and the variable', async () => {
    const load = await templatesWith('invitation.text.liquid', 'Hello {{ user.password }}')
    expect(load).toThrow(TemplateError)
    expect(load).toThrow(/invitation\.text\.liquid: uses user\.password, which this email does not offer/)
  })

  it('refuse at load an unknown filter, a tag reaching for another template, and external resources in HTML', async () => {
    expect(await templatesWith('invitation.subject.liquid', '{{ org.name | shell }}')).toThrow(
      /undefined filter: shell/,
    )
    expect(await templatesWith('invitation.text.liquid', '{% include "secrets" %}')).toThrow(
      /include tag is not available/,
    )
    expect(await templatesWith('invitation.html.liquid', '<img src="https://tracker.example/p.png">')).toThrow(
      /loads from another address/,
    )
    expect(await templatesWith('invitation.html.liquid', '<p>hi</p><script>x()</script>')).toThrow(/no script/)
  })

  it('bound the time a render may take', async () => {
    const load = await templatesWith('invitation.text.liquid', '{% for i in (1..100000000) %}{{ role }}{% endfor %}')
    const templates = load()
    await expect(templates.render('invitation', { ...sampleVariables('invitation') })).rejects.toThrow()
  })
})
