import { ApiError } from './client'

/**
 * The app's one message catalogue: a problem+json answer in people's words. Each message is
 * keyed by the API's stable codes (the problem's `code`, each `errors[].code`) and `param`, says
 * what to do, and names the field by its visible label. A code the catalogue does not know shows
 * the API's `detail`, with any parameter name in it replaced by its label.
 */

/** A form's fields: the API's `param` (or a prefix of it: `territories` for `territories.2`) → the visible label. */
export type FieldLabels = Readonly<Record<string, string>> | ((param: string) => string | undefined)

export interface FormErrors {
  /** One message per field shown, keyed like the labels given (the param, or the prefix of it that has a field). */
  fields: Record<string, string>
  /** What belongs to no field shown: for the top of the form, once (null when everything has its field). */
  general: string | null
}

/** One thing the API refused: an `errors[]` item, or the problem itself when it names a single `param`. */
interface Refusal {
  param: string
  code: string
  /** The validator's text (`errors[].message`) or the problem's `detail`. */
  text: string
}

/** Decimal strings (money): what to show as the example when one is written wrongly. */
const DECIMAL_EXAMPLES: Readonly<Record<string, string>> = {
  amount: '12.50',
  price: '25.00',
  minimumPayout: '25.00',
  openingBalance: '-500.00',
}

/** Messages for one parameter, by code (the `errors[].code`, or the problem's code when it names the param). */
const BY_PARAM: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  website: { invalid: 'Start the website with https://', invalid_format: 'Start the website with https://' },
  url: { invalid: 'Start the URL with https://', invalid_format: 'Start the URL with https://' },
  accepted: { invalid: 'Tick the box to accept the agreement', invalid_type: 'Tick the box to accept the agreement' },
  currency: {
    invalid_format: 'Use the three-letter currency code, such as EUR',
    parameter_invalid: 'Use an active three-letter currency code, such as EUR',
  },
  payoutCurrency: {
    invalid_format: 'Use the three-letter currency code, such as EUR',
    parameter_invalid: 'Use an active three-letter currency code, such as EUR',
  },
  country: {
    invalid_format: 'Use the two-letter country code, such as NL',
    parameter_invalid: 'Use a two-letter country code, such as NL',
  },
  territory: {
    invalid_format: 'Use a two-letter country code such as DE, or WORLD',
    parameter_invalid: 'Use a two-letter country code such as DE, or WORLD',
  },
  territories: {
    invalid_format: 'Use two-letter country codes such as NL, DE, or WORLD',
    parameter_invalid: 'Use two-letter country codes such as NL, DE, or WORLD',
  },
  timezone: { parameter_invalid: 'Choose the venue’s time zone from the list' },
  endsAt: { parameter_invalid: 'Make it end after it starts' },
  periodEnd: { parameter_invalid: 'End the period on or after the day it starts' },
  failureCode: { invalid_format: 'Use lowercase letters and underscores, such as account_closed' },
  action: { invalid_format: 'Write the action as object.verb, such as catalog.created' },
  status: { invalid_format: 'Use 2xx, 4xx, 5xx or a status code such as 401' },
  // A single-use link's token (a password reset): used already, or too old.
  token: { parameter_invalid: 'This link has been used already or has expired: ask for a new one' },
  since: { invalid: 'Write the time as 2026-11-28T00:00:00Z' },
  until: { invalid: 'Write the time as 2026-11-28T00:00:00Z' },
}

/** Messages for a problem as a whole (no field), by the problem's code; codes not here show the API's `detail`. */
const BY_PROBLEM: Readonly<Record<string, string>> = {
  invalid_state: 'This was changed meanwhile and no longer allows that. The page now shows its current state.',
  rate_limited: 'Too many requests just now. Wait a moment, then try again.',
  idempotency_key_in_use: 'This is still being saved. Wait a moment before sending it again.',
  payload_too_large: 'This is too large to send at once (more than 1 MiB).',
  internal_error: 'Something went wrong on our side. Try again in a moment.',
  service_unavailable: 'The service is busy recovering. Try again in a moment.',
  invalid_json: 'The app sent something the service could not read. Reload the page and try again.',
}

const lower = (label: string) => (/^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label)
const upper = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** The last name in a param (`ticketTypes.0.price` → `price`): messages for a kind of field apply wherever it is. */
const leaf = (param: string) =>
  param
    .split('.')
    .filter((part) => !/^\d+$/.test(part))
    .pop() ?? param

/** A camelCase or dotted name as words (`expectedMonthlyRequests` → `expected monthly requests`). */
function words(name: string): string {
  return name
    .split('.')
    .filter((part) => !/^\d+$/.test(part))
    .map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase())
    .join(' ')
}

/** The message for one refusal of a field called `label`; `null` when the catalogue has none (the text is used). */
function catalogued({ param, code, text }: Refusal, label: string): string | null {
  const name = leaf(param)
  const special = BY_PARAM[name]?.[code]
  if (special) return special
  const example = DECIMAL_EXAMPLES[name]
  const count = (pattern: RegExp) => pattern.exec(text)?.[1]
  switch (code) {
    case 'missing':
    case 'parameter_missing':
      return `${upper(label)} is required`
    case 'invalid_type':
      if (example || /decimal string/.test(text)) return `Use a dot for decimals: ${example ?? '12.50'}`
      if (/must be integer/.test(text)) return 'Enter a whole number'
      if (/must be number/.test(text)) return 'Enter a number'
      return `Fill in ${lower(label)} again: its value is not the kind expected`
    case 'invalid_format':
      if (example || /decimal string/.test(text)) return `Use a dot for decimals: ${example ?? '12.50'}`
      return `Write ${lower(label)} in the form its hint shows`
    case 'out_of_range': {
      const fewerChars = count(/fewer than (\d+) characters/)
      if (fewerChars === '1') return `${upper(label)} is required`
      if (fewerChars) return `${upper(label)} needs at least ${fewerChars} characters`
      const moreChars = count(/more than (\d+) characters/) ?? count(/longer than (\d+) characters/)
      if (moreChars) return `Shorten ${lower(label)} to ${moreChars} characters or fewer`
      const fewerItems = count(/fewer than (\d+) items/)
      if (fewerItems) return `Choose at least ${fewerItems === '1' ? 'one' : fewerItems}: ${lower(label)}`
      const moreItems = count(/more than (\d+) items/)
      if (moreItems) return `Choose at most ${moreItems}: ${lower(label)}`
      const atLeast = count(/must be >= (-?[\d.]+)/)
      if (atLeast) return `Enter ${atLeast} or more`
      const atMost = count(/must be <= (-?[\d.]+)/)
      if (atMost) return `Enter ${atMost} or less`
      const above = count(/must be > (-?[\d.]+)/)
      if (above) return `Enter more than ${above}`
      const below = count(/must be < (-?[\d.]+)/)
      if (below) return `Enter less than ${below}`
      return `${upper(label)} is too short or too long`
    }
    case 'invalid_value':
      return `Choose one of the options for ${lower(label)}`
    case 'unknown':
      return `${upper(label)} is not taken here: leave it out`
    case 'invalid': {
      const format = count(/must match format "([^"]+)"/)
      if (format === 'email') return 'Enter an email address, such as name@example.com'
      if (format === 'uri' || format === 'url') return 'Enter the whole address, starting with https://'
      if (format === 'date') return 'Enter a date'
      if (format === 'date-time') return 'Enter a date and time'
      if (/must be equal to constant/.test(text)) return `Tick ${lower(label)}`
      return null
    }
    default:
      return BY_PROBLEM[code] ?? null
  }
}

/**
 * The API's own text, readable: the parameter names it mentions (the refused `param`, and any
 * camelCase or dotted name) become the fields' labels, or plain words when the form has no such
 * field. Used for codes the catalogue lacks.
 */
function readable(text: string, param: string, label: (param: string) => string | undefined): string {
  const named = text.replace(/\b[a-zA-Z][\w-]*(?:\.[\w-]+)*\b/g, (token) => {
    const looksLikeParam = token === param || /[a-z][A-Z]/.test(token) || /^[a-z]\w*(\.\w+)+$/.test(token)
    if (!looksLikeParam) return token
    const own = label(token) ?? label(leaf(token))
    if (own) return own
    return /[a-z][A-Z]/.test(token) ? words(token) : token
  })
  return upper(named)
}

/** The problem's refusals: every `errors[]` item, or the problem itself (with its `param` when it names one). */
function refusalsOf(error: ApiError): Refusal[] {
  const { problem } = error
  if (problem.errors?.length)
    return problem.errors.map((item) => ({ param: item.param, code: item.code, text: item.message ?? problem.detail }))
  return [{ param: problem.param ?? '', code: problem.code, text: problem.detail }]
}

/** The field of a param: the param itself or its longest prefix that has a label. */
function fieldOf(param: string, labelOf: (param: string) => string | undefined): string | null {
  const parts = param.split('.')
  for (let length = parts.length; length > 0; length -= 1) {
    const prefix = parts.slice(0, length).join('.')
    if (labelOf(prefix)) return prefix
  }
  return null
}

/**
 * The messages of a failed request for a form: each at its field when the form has one (`labels`),
 * otherwise once at the top. Other errors (no answer at all, a dropped session) are given as their message.
 */
export function formErrors(error: unknown, labels: FieldLabels = {}): FormErrors {
  if (!error) return { fields: {}, general: null }
  if (!(error instanceof ApiError))
    return { fields: {}, general: error instanceof Error ? error.message : String(error) }
  const labelOf = typeof labels === 'function' ? labels : (param: string) => labels[param]
  const fields: Record<string, string> = {}
  const general: string[] = []
  for (const refusal of refusalsOf(error)) {
    const field = refusal.param ? fieldOf(refusal.param, labelOf) : null
    const label = (field && labelOf(field)) ?? words(refusal.param)
    const message = catalogued(refusal, label) ?? readable(refusal.text, refusal.param, labelOf)
    if (field) fields[field] ??= message
    else if (!refusal.param || message.toLowerCase().includes(label.toLowerCase()) || !label) general.push(message)
    else general.push(`${upper(label)}: ${lower(message)}`)
  }
  const unique = [...new Set(general)]
  return { fields, general: unique.length ? unique.join(' ') : null }
}

/** The message of a failed request shown on its own (an action's error, a list that could not load). */
export function problemMessage(error: unknown): string | null {
  return formErrors(error).general
}
