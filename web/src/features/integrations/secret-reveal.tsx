import { useId, useState, type ReactNode } from 'react'
import { Button } from '../../ui'

/**
 * A secret the API answers once (a credential's client secret, a webhook's signing secret): shown
 * here with a copy button; the API never shows it again, so leaving the page loses it.
 */
export function SecretReveal({ label, secret, children }: { label: string; secret: string; children?: ReactNode }) {
  const id = useId()
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  const copy = () =>
    navigator.clipboard.writeText(secret).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    )
  return (
    <div className="secret-reveal">
      {children}
      <p className="notice">Store it now: it is shown only this once, and only its hash is kept.</p>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <div className="copy-row">
          <input id={id} value={secret} readOnly spellCheck={false} onFocus={(event) => event.currentTarget.select()} />
          <Button onClick={() => void copy()}>Copy secret</Button>
        </div>
        {copied === 'yes' ? (
          <p className="field-hint" role="status">
            Copied.
          </p>
        ) : null}
        {copied === 'failed' ? (
          <p className="field-hint" role="status">
            This browser did not allow copying: select the secret and copy it.
          </p>
        ) : null}
      </div>
    </div>
  )
}

/** A choice of values as labelled checkboxes (scopes, webhook kinds), with the API's error for the field. */
export function CheckboxGroup<Value extends string>({
  legend,
  options,
  selected,
  onChange,
  label = (value) => value,
  error,
  hint,
}: {
  legend: string
  options: readonly Value[]
  selected: readonly Value[]
  onChange: (selected: Value[]) => void
  label?: (value: Value) => string
  error?: string | undefined
  hint?: ReactNode
}) {
  const errorId = useId()
  return (
    <fieldset className="choice" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {hint ? <p className="field-hint">{hint}</p> : null}
      <div className="choice-grid">
        {options.map((option) => (
          <label key={option} className="choice-option">
            <input
              type="checkbox"
              value={option}
              checked={selected.includes(option)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? options.filter((value) => value === option || selected.includes(value))
                    : selected.filter((value) => value !== option),
                )
              }
            />
            <span>{label(option)}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}
