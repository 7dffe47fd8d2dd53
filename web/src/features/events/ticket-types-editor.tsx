import { useId } from 'react'
import { Button } from '../../ui'

export interface TicketTypeDraft {
  key: string
  name: string
  /** As typed: the API's decimal string, never a float. */
  price: string
  /** As typed: a whole number of tickets, or not yet. */
  quantity: string
}

const WHOLE = /^\d+$/

/** A count typed in a field: a whole number, or null while it is not one. */
export const wholeNumber = (value: string): number | null => (WHOLE.test(value.trim()) ? Number(value.trim()) : null)

export function ticketTotal(types: readonly TicketTypeDraft[]): number {
  return types.reduce((sum, type) => sum + (wholeNumber(type.quantity) ?? 0), 0)
}

const TYPE_FIELDS: Record<string, string> = { name: 'Name', price: 'Price', quantity: 'Quantity' }

/** The visible label of a ticket type's field by the API's param (`ticketTypes.1.price` → "Price"); a row is "Ticket type 2". */
export function ticketTypeLabel(param: string): string | undefined {
  if (param === 'ticketTypes') return 'Ticket types'
  const match = /^ticketTypes\.(\d+)(?:\.(\w+))?$/.exec(param)
  if (!match) return undefined
  if (!match[2]) return `Ticket type ${Number(match[1]) + 1}`
  return TYPE_FIELDS[match[2]]
}

let nextKey = 0
export const newTicketType = (name = '', price = '', quantity = ''): TicketTypeDraft => ({
  key: `ticket-type-${(nextKey += 1)}`,
  name,
  price,
  quantity,
})

/** The rule the API checks (DESIGN 5.5): ticket quantities sum to at most the capacity. */
export function capacityStatus(total: number, capacity: number | null): { text: string; tone: 'ok' | 'off' | 'open' } {
  const rule = 'Ticket quantities must sum to at most the capacity.'
  if (capacity === null)
    return { text: `${total} tickets offered. Set the capacity to check them against it.`, tone: 'open' }
  if (total <= capacity)
    return { text: `${total} of ${capacity} places offered as tickets: ${capacity - total} left. ${rule}`, tone: 'ok' }
  return { text: `${total} tickets for a capacity of ${capacity}: ${total - capacity} too many. ${rule}`, tone: 'off' }
}

interface TicketTypesEditorProps {
  types: TicketTypeDraft[]
  onChange: (types: TicketTypeDraft[]) => void
  /** The capacity field as typed. */
  capacity: string
  currency: string
  /** The API's errors for `ticketTypes` and `ticketTypes.N.field`. */
  errors: Record<string, string>
}

/** One row per ticket type; the total against the capacity is shown (and announced) as you type. */
export function TicketTypesEditor({ types, onChange, capacity, currency, errors }: TicketTypesEditorProps) {
  const id = useId()
  const status = capacityStatus(ticketTotal(types), wholeNumber(capacity))
  const update = (key: string, change: Partial<TicketTypeDraft>) =>
    onChange(types.map((type) => (type.key === key ? { ...type, ...change } : type)))
  return (
    <fieldset className="ticket-types" aria-describedby={`${id}-total`}>
      <legend>Ticket types</legend>
      {types.map((type, index) => {
        const label = `Ticket type ${index + 1}`
        const field = (name: keyof TicketTypeDraft, text: string, error: string | undefined, input: object = {}) => {
          const inputId = `${id}-${type.key}-${name}`
          return (
            <div className="field">
              <label htmlFor={inputId}>
                <span className="visually-hidden">{label}: </span>
                {text}
              </label>
              <input
                id={inputId}
                value={type[name]}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${inputId}-error` : undefined}
                onChange={(event) => update(type.key, { [name]: event.target.value })}
                {...input}
              />
              {error ? (
                <p className="field-error" id={`${inputId}-error`}>
                  {error}
                </p>
              ) : null}
            </div>
          )
        }
        const error = (name: string) => errors[`ticketTypes.${index}.${name}`]
        return (
          <div className="ticket-type-row" key={type.key} role="group" aria-label={label}>
            {field('name', 'Name', error('name'), { maxLength: 100 })}
            {field('price', `Price (${currency.trim().toUpperCase() || 'currency'})`, error('price'), {
              inputMode: 'decimal',
            })}
            {field('quantity', 'Quantity', error('quantity'), { inputMode: 'numeric' })}
            <Button className="row-remove" onClick={() => onChange(types.filter((other) => other.key !== type.key))}>
              Remove ticket type {index + 1}
            </Button>
            {errors[`ticketTypes.${index}`] ? (
              <p className="field-error row-error">{errors[`ticketTypes.${index}`]}</p>
            ) : null}
          </div>
        )
      })}
      {types.length === 0 ? <p className="muted">No ticket types: the event sells no tickets here.</p> : null}
      <Button onClick={() => onChange([...types, newTicketType()])}>Add ticket type</Button>
      <p id={`${id}-total`} className={`rule-status rule-status-${status.tone}`} role="status">
        {status.text}
      </p>
      {errors.ticketTypes ? <p className="field-error">{errors.ticketTypes}</p> : null}
    </fieldset>
  )
}
