import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { simpleParser } from 'mailparser'
import { expect } from 'vitest'

/** An email the service wrote to `DATA_DIR/mail/` (no SMTP_URL), parsed as a mail program would read it. */
export interface WrittenEmail {
  file: string
  to: string
  subject: string
  text: string
  /** Every address in the text part, in order. */
  links: string[]
}

async function readAll(dataDir: string): Promise<WrittenEmail[]> {
  const dir = path.join(dataDir, 'mail')
  const files = await readdir(dir).catch(() => [] as string[])
  const emails: WrittenEmail[] = []
  for (const name of files.filter((file) => file.endsWith('.eml'))) {
    const parsed = await simpleParser(await readFile(path.join(dir, name)))
    const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '')
    const text = parsed.text ?? ''
    emails.push({ file: name, to, subject: parsed.subject ?? '', text, links: text.match(/https?:\/\/\S+/g) ?? [] })
  }
  // The ids are time-ordered: the newest email last.
  return emails.sort((a, b) => a.file.localeCompare(b.file))
}

/**
 * The emails to `address` whose subject matches, once there are `count` of them: the worker sends the
 * outbox every second, so this waits (up to 20 s) as a person waits for their mail.
 */
export async function emailsTo(dataDir: string, address: string, subject: RegExp, count = 1): Promise<WrittenEmail[]> {
  let found: WrittenEmail[] = []
  await expect
    .poll(
      async () => {
        found = (await readAll(dataDir)).filter((email) => email.to.includes(address) && subject.test(email.subject))
        return found.length
      },
      { timeout: 20_000, interval: 250 },
    )
    .toBeGreaterThanOrEqual(count)
  return found
}

/** The one link of an email that leads to `pathname` on the service (the link a person clicks). */
export function linkTo(email: WrittenEmail, pathname: string): string {
  const link = email.links.find((candidate) => new URL(candidate).pathname === pathname)
  if (!link) throw new Error(`no link to ${pathname} in "${email.subject}":\n${email.text}`)
  return link
}
