import { useState } from 'react'
import { Button } from './button'

/**
 * A button that copies `text` to the clipboard and says whether it could ("Copied." or how to copy
 * by hand). `label` names what it copies, for its visible text: "Copy org id".
 */
export function CopyButton({ text, label, name }: { text: string; label: string; name?: string | undefined }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    )
  return (
    <span className="copy-button">
      {/* `name` tells apart several buttons of one kind on a page ("Copy client id of Nightly sync"). */}
      <Button onClick={() => void copy()} aria-label={name}>
        {label}
      </Button>
      <span role="status" className="field-hint">
        {copied === 'yes'
          ? 'Copied.'
          : copied === 'failed'
            ? 'Select it and copy it: this browser did not allow it.'
            : ''}
      </span>
    </span>
  )
}

/**
 * An id a person needs elsewhere (in an API call, a support request): the id as code and a button
 * copying it. `label` says which id it is ("org id", "client id"); `of` names its record when a
 * page shows several of the kind.
 */
export function CopyableId({ label, value, of }: { label: string; value: string; of?: string }) {
  return (
    <span className="copyable-id">
      <code>{value}</code>
      <CopyButton text={value} label={`Copy ${label}`} name={of ? `Copy ${label} of ${of}` : undefined} />
    </span>
  )
}
