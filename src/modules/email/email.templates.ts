import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Liquid, type Template } from 'liquidjs'
import { COMMON_VARIABLES, EMAIL_KIND_SPECS, EMAIL_KINDS, isEmailKind, type EmailKind } from './email.kinds.js'

/** The three parts of an email, each a template. */
export const SLOTS = ['subject', 'text', 'html'] as const
export type Slot = (typeof SLOTS)[number]

export interface RenderedEmail {
  subject: string
  text: string
  html: string
}

export interface EmailTemplates {
  render(kind: EmailKind, variables: Record<string, unknown>): Promise<RenderedEmail>
}

/** A template refused: which file (or submitted slot), and why, in one line. */
export class TemplateError extends Error {
  constructor(
    readonly where: string,
    readonly reason: string,
  ) {
    super(`${where}: ${reason}`)
  }
}

/** The repository's templates: `<kind>.<slot>.liquid` and the two layouts. */
export const DEFAULT_TEMPLATE_DIR = fileURLToPath(new URL('./templates/', import.meta.url))

/** Template text at most this long; a render at most this long, in ms. */
const MAX_TEMPLATE_CHARS = 64 * 1024
const RENDER_LIMIT_MS = 1_000
const MAX_OUTPUT_CHARS = 512 * 1024

/**
 * Strict LiquidJS: an unknown filter fails the parse, an undefined variable the render; output
 * escaped for HTML (`outputEscape`) in the HTML part; templates only from memory (`templates`:
 * no file is ever read by a template, `include` finds nothing); parse size and render time bounded.
 */
function engine(html: boolean): Liquid {
  return new Liquid({
    strictFilters: true,
    strictVariables: true,
    ownPropertyOnly: true,
    templates: {},
    relativeReference: false,
    parseLimit: MAX_TEMPLATE_CHARS,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: 1e7,
    ...(html ? { outputEscape: 'escape' as const } : {}),
  })
}

const html = engine(true)
const plain = engine(false)

/** The layouts' own variables, beside the kind's. */
const LAYOUT_VARIABLES = ['content', 'subject']

/** Parses a template and checks every variable it reads is one its kind offers (a path or a prefix of one). */
export function parseTemplate(
  where: string,
  source: string,
  slot: Slot | 'layout',
  allowed: readonly string[],
): Template[] {
  if (source.length > MAX_TEMPLATE_CHARS) throw new TemplateError(where, `longer than ${MAX_TEMPLATE_CHARS} characters`)
  const liquid = slot === 'html' || (slot === 'layout' && where.endsWith('.html.liquid')) ? html : plain
  checkTags(where, source)
  let parsed: Template[]
  try {
    parsed = liquid.parse(source)
  } catch (error) {
    throw new TemplateError(where, (error as Error).message.split('\n')[0] ?? 'does not parse')
  }
  for (const used of liquid.globalFullVariablesSync(parsed)) {
    const known = allowed.some((path) => path === used || path.startsWith(`${used}.`))
    if (!known)
      throw new TemplateError(where, `uses ${used}, which this email does not offer (it offers ${allowed.join(', ')})`)
  }
  return parsed
}

/** Templates come from memory and stay there: no tag that would reach for another template. */
function checkTags(where: string, source: string): void {
  const reaching = /\{%-?\s*(include|render|layout|block)\b/.exec(source)
  if (reaching) throw new TemplateError(where, `the ${reaching[1]} tag is not available in email templates`)
}

export const kindVariables = (kind: EmailKind): string[] =>
  [...COMMON_VARIABLES, ...EMAIL_KIND_SPECS[kind].variables].map((variable) => variable.path)

/** The HTML part's own check: nothing loaded from elsewhere (images, styles, frames), no script at all. */
export function checkHtml(where: string, source: string): void {
  if (/<script\b/i.test(source)) throw new TemplateError(where, 'an email has no script')
  const loading =
    /<(img|link|iframe|object|embed|video|audio|source)\b[^>]*\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i.exec(source)
  if (loading)
    throw new TemplateError(where, `a <${loading[1]}> loads from another address; emails carry no external resources`)
  if (/url\(\s*["']?\s*(https?:)?\/\//i.test(source))
    throw new TemplateError(where, 'a style loads from another address; emails carry no external resources')
}

interface KindTemplates {
  subject: Template[]
  text: Template[]
  html: Template[]
}

/**
 * Loads every kind's templates and the layouts from `dir` (and `overrides`, a deployment's own
 * `emails/` whose files replace the repository's one by one): each parsed and checked now, so a
 * bad template stops the process at start naming its file.
 */
export function loadEmailTemplates(options: { dir?: string; overrides?: string | null } = {}): EmailTemplates {
  const dir = options.dir ?? DEFAULT_TEMPLATE_DIR
  const overridden = new Set(options.overrides ? listOverrides(options.overrides) : [])
  const read = (file: string) => {
    const from = options.overrides && overridden.has(file) ? options.overrides : dir
    return { where: path.join(from, file), source: readFileSync(path.join(from, file), 'utf8') }
  }
  for (const file of overridden) checkOverrideName(file)
  const layoutVariables = [...COMMON_VARIABLES.map((variable) => variable.path), ...LAYOUT_VARIABLES]
  const layoutHtml = read('layout.html.liquid')
  const layoutText = read('layout.text.liquid')
  checkHtml(layoutHtml.where, layoutHtml.source)
  const layouts = {
    html: parseTemplate(layoutHtml.where, layoutHtml.source, 'layout', layoutVariables),
    text: parseTemplate(layoutText.where, layoutText.source, 'layout', layoutVariables),
  }
  const kinds = new Map<EmailKind, KindTemplates>()
  for (const kind of EMAIL_KINDS) {
    const parsed: Partial<KindTemplates> = {}
    for (const slot of SLOTS) {
      const { where, source } = read(`${kind}.${slot}.liquid`)
      if (slot === 'html') checkHtml(where, source)
      parsed[slot] = parseTemplate(where, source, slot, kindVariables(kind))
    }
    kinds.set(kind, parsed as KindTemplates)
  }
  return {
    async render(kind, variables) {
      const templates = kinds.get(kind)!
      const subject = oneLine(await plain.render(templates.subject, variables))
      const text = await plain.render(templates.text, variables)
      const body = await html.render(templates.html, variables)
      const email = {
        subject,
        text: await plain.render(layouts.text, { ...variables, subject, content: text }),
        html: await html.render(layouts.html, { ...variables, subject, content: body }),
      }
      if (email.text.length + email.html.length > MAX_OUTPUT_CHARS)
        throw new Error(`the ${kind} email renders to more than ${MAX_OUTPUT_CHARS} characters`)
      return email
    },
  }
}

function listOverrides(dir: string): string[] {
  try {
    return readdirSync(dir).filter((file) => file.endsWith('.liquid'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

/** A deployment's file names a kind and slot this service knows, or a layout. */
function checkOverrideName(file: string): void {
  if (file === 'layout.html.liquid' || file === 'layout.text.liquid') return
  const match = /^([a-z_]+)\.(subject|text|html)\.liquid$/.exec(file)
  if (!match || !isEmailKind(match[1]!))
    throw new TemplateError(
      file,
      `not an email template name (<kind>.subject|text|html.liquid, kinds: ${EMAIL_KINDS.join(', ')})`,
    )
}

/** A subject is one line: a line break in it would end the header. */
const oneLine = (value: string): string => value.replace(/[\r\n]+/g, ' ').trim()
