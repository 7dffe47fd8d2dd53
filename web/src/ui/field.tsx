import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react'

/** What a control needs to be tied to its label, hint and error. */
export interface ControlProps {
  id: string
  'aria-invalid': boolean | undefined
  'aria-describedby': string | undefined
}

export interface FieldProps {
  label: string
  /** The API's message for this field (problem+json `errors[].param`), shown beside it. */
  error?: string | undefined
  hint?: ReactNode
  children: (control: ControlProps) => ReactNode
}

/** A visible <label>, the control, a hint and the field's error, tied together for assistive technology. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  )
}

type TextFieldProps = Omit<FieldProps, 'children'> & InputHTMLAttributes<HTMLInputElement>

export function TextField({ label, error, hint, ...input }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => <input type="text" {...input} {...control} />}
    </Field>
  )
}

type SelectFieldProps = Omit<FieldProps, 'children'> &
  SelectHTMLAttributes<HTMLSelectElement> & { options: readonly { value: string; label: string }[] }

export function SelectField({ label, error, hint, options, ...select }: SelectFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => (
        <select {...select} {...control}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

/** The form's own message (a problem with no field, or one the form has no field for). */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null
  return (
    <div className="form-error" role="alert">
      {message}
    </div>
  )
}
