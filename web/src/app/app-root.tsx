import { Outlet, useLocation } from '@tanstack/react-router'
import { lazy, Suspense, useSyncExternalStore } from 'react'
import { wrongRegionStore } from '../api/wrong-region'
import { signInStore } from './sign-in-again'
import { WrongRegionPage } from './wrong-region-page'

/** Loaded only when a session ends on an open page (it brings the dialog's code). */
const SignInDialog = lazy(() => import('./sign-in-dialog'))

/**
 * Every page, or instead the page that explains a 421 wrong_region answer to one of its requests.
 * The app never goes to the other region by itself: that page links to it. Over any page, the
 * sign-in dialog when its session ended.
 */
export function AppRoot() {
  const wrongRegion = useSyncExternalStore(wrongRegionStore.subscribe, wrongRegionStore.snapshot)
  const signingIn = useSyncExternalStore(signInStore.subscribe, signInStore.open)
  // The explanation belongs to the page whose request was refused; the next page shows as usual.
  const location = useLocation()
  const shown = wrongRegion !== null && wrongRegion.page === location.pathname + window.location.search
  return (
    <>
      {shown ? <WrongRegionPage wrongRegion={wrongRegion} /> : null}
      {/* Kept mounted while hidden: unmounting would make the refused page ask again on the way out. */}
      <div hidden={shown}>
        <Outlet />
      </div>
      {signingIn ? (
        <Suspense fallback={null}>
          <SignInDialog />
        </Suspense>
      ) : null}
    </>
  )
}
