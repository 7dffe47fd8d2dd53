import type { Deployment } from './portal-api'
import { REGION_NAMES } from './portal-names'

/**
 * The data region: this deployment keeps one region's data, so it is the only choice here. Each
 * other region this deployment knows the address of is a link to that deployment's partner sign-up,
 * carrying what was typed (`carried`, never the password), so choosing it loses nothing.
 */
export function RegionChoice({
  deployment,
  carried,
  error,
}: {
  deployment: Deployment
  carried: Record<string, string>
  error?: string | undefined
}) {
  const others = deployment.regions.filter(
    (other): other is { region: typeof other.region; baseUrl: string } =>
      other.region !== deployment.region && other.baseUrl !== null,
  )
  const query = new URLSearchParams(Object.entries(carried).filter(([, value]) => value !== '')).toString()
  return (
    <fieldset className="choice">
      <legend>Data region</legend>
      <label className="choice-option">
        <input type="radio" name="region" value={deployment.region} defaultChecked />
        <span>{REGION_NAMES[deployment.region] ?? deployment.region}</span>
      </label>
      <p className="field-hint">
        Where your data is kept, fixed once chosen: this deployment keeps this region’s data.
      </p>
      {others.length > 0 ? (
        <>
          <p className="field-hint">Another region has a deployment of its own; what you typed goes with you:</p>
          <ul className="region-links">
            {others.map((other) => (
              <li key={other.region}>
                <a href={`${other.baseUrl.replace(/\/$/, '')}/portal/signup${query ? `?${query}` : ''}`}>
                  Sign up in {REGION_NAMES[other.region] ?? other.region}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  )
}
