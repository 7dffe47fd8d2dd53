import { useState } from 'react'
import { Button } from '../../ui'

/**
 * A secret the API shows once: the value, a copy button and the warning that it will not be shown
 * again. The page holds it in memory only; it is gone on reload.
 */
export function SecretReveal({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
  }
  return (
    <div className="secret-reveal">
      <p>
        <strong>{label}</strong>: copy it now. It is shown this once and cannot be shown again.
      </p>
      <code className="secret-value" aria-label={label}>
        {value}
      </code>
      <Button onClick={() => void copy()}>Copy secret</Button>
      <span role="status" className="muted">
        {copied === 'yes' ? ' Copied.' : copied === 'failed' ? ' Copy failed: select the text and copy it.' : ''}
      </span>
    </div>
  )
}
