import { Link } from '@tanstack/react-router'
import { pageInRegion, type WrongRegion } from '../api/wrong-region'

/** Where each region's data is kept (docs/residency.md). */
const REGION_PLACES: Readonly<Record<string, string>> = {
  'us-east': 'USA, east',
  'eu-west': 'Ireland',
  'au-east': 'Australia',
}

const named = (region: string) => (REGION_PLACES[region] ? `${region} (${REGION_PLACES[region]})` : region)

/** A 421 wrong_region answer, explained: which region keeps the data, and a link to it (never a redirect). */
export function WrongRegionPage({ wrongRegion }: { wrongRegion: WrongRegion }) {
  const { region, servedRegion, detail, requestId } = wrongRegion
  const target = pageInRegion(wrongRegion.baseUrl, wrongRegion.page)
  return (
    <main className="auth auth-wide">
      <p className="brand">Oeuvre</p>
      <div className="auth-card">
        <h1>This is kept in another region</h1>
        <p>
          {region ? (
            <>
              It belongs to the <strong>{named(region)}</strong> region
            </>
          ) : (
            'It belongs to another region'
          )}
          {servedRegion ? (
            <>
              ; this deployment serves <strong>{named(servedRegion)}</strong>
            </>
          ) : null}
          . Each region keeps its data in its own deployment, which never reads or copies another region’s.
        </p>
        {target ? (
          <>
            <p>
              <a href={target} className="button button-primary">
                Open this page in {region ?? 'its region'}
              </a>
            </p>
            <p className="muted wrap-anywhere">{target}</p>
          </>
        ) : (
          <p>
            This deployment does not know the address of the {region ?? 'other'} deployment: ask your administrator.
          </p>
        )}
        <p className="muted">{detail}</p>
        {requestId ? <p className="muted">Request id: {requestId}</p> : null}
        <p>
          <Link to="/">Back to this deployment’s app</Link>
        </p>
      </div>
    </main>
  )
}
