import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link, Navigate, Outlet, useLocation, useNavigate } from '@tanstack/react-router'
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react'
import { ApiError } from '../api/client'
import { logOut } from '../features/auth/auth-api'
import { forgetUnsaved } from '../features/portal/sandbox'
import { Button, ErrorState, Loading } from '../ui'
import { OrgSwitcher } from '../features/orgs/org-switcher'
import { MainNavigation } from './navigation'
import { useSession } from './session'

/** The portal's front doors, loaded only when `/portal` is opened signed out. */
const PortalWelcome = lazy(() => import('../features/portal/portal-welcome'))

/** Pages outside the shell, for people signed out. */
const OUTSIDE_SHELL = new Set([
  '/login',
  '/signup',
  '/forgot-password',
  '/reset-password',
  '/invitations/accept',
  '/portal/signup',
])

/** Pages that work without an active org: creating one, the account, the portal's home and the operator console. */
const WITHOUT_ORG = new Set(['/orgs/new', '/account', '/portal', '/portal/apply'])
const worksWithoutOrg = (pathname: string) => WITHOUT_ORG.has(pathname) || pathname.startsWith('/portal/operator')

/** The frame of every signed-in page: who and where you are, the org switcher, navigation, log out. */
export function AppShell() {
  const { me, active } = useSession()
  const location = useLocation()
  const main = useRef<HTMLElement>(null)
  const firstPage = useRef(true)
  // A new page moves focus to its content, as a page load would, so the keyboard and screen readers start there.
  useEffect(() => {
    if (firstPage.current) firstPage.current = false
    else main.current?.focus({ preventScroll: true })
  }, [location.pathname])

  if (me.isPending) return <Loading label="Loading your account…" />
  // No session when the page opened: the login page. (A session that ends on an open page asks to sign in over it.)
  if (me.error instanceof ApiError && me.error.status === 401 && me.data === undefined) {
    // The portal's home signed out: its front doors (partner sign-up and log in), not the login page alone.
    if (location.pathname === '/portal')
      return (
        <Suspense fallback={<Loading />}>
          <PortalWelcome />
        </Suspense>
      )
    // While a page outside the shell loads (the login page, or the portal's sign-up from its front doors),
    // this shell still renders with the new location: navigate once, and never away from those.
    if (OUTSIDE_SHELL.has(location.pathname)) return null
    return <Navigate to="/login" search={{ redirect: location.href }} replace />
  }
  if (me.data === undefined) return <ErrorState error={me.error} onRetry={() => void me.refetch()} />
  const needsOrg = active === null && !worksWithoutOrg(location.pathname)

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ShellHeader userName={me.data.user.name} navigation={<MainNavigation />} />
      <main id="main" className="shell-main" tabIndex={-1} ref={main}>
        {needsOrg ? <Navigate to="/orgs/new" /> : <Outlet />}
      </main>
    </div>
  )
}

/** The brand and, behind "Menu" below 768 px, the account and the navigation. */
function ShellHeader({ userName, navigation }: { userName: string; navigation: ReactNode }) {
  const location = useLocation()
  // Below 768 px the navigation and the account are behind the menu button; it stays open on the page it was
  // opened on, so going to another page closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null)
  const menuOpen = menuOpenOn === location.pathname
  return (
    <header className="shell-header">
      <div className="shell-bar">
        <Link to="/" className="brand">
          Oeuvre
        </Link>
        <Button
          className="shell-menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="shell-menu"
          onClick={() => setMenuOpenOn(menuOpen ? null : location.pathname)}
        >
          Menu
        </Button>
      </div>
      <div id="shell-menu" className="shell-menu" data-open={menuOpen}>
        <ShellAccount userName={userName} />
        {navigation}
      </div>
    </header>
  )
}

/** The org switcher, who is signed in, and logging out (which forgets everything loaded). */
function ShellAccount({ userName }: { userName: string }) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const logout = useMutation({
    mutationFn: logOut,
    onSettled: async () => {
      // A sandbox secret not yet saved belongs to this person: never shown to whoever signs in next in this tab.
      forgetUnsaved()
      queryClient.clear()
      await navigate({ to: '/login', search: {} })
    },
  })
  return (
    <div className="shell-account">
      <OrgSwitcher />
      <div className="shell-user">
        <span className="muted">{userName}</span>
        <Link to="/account" activeProps={{ 'aria-current': 'page' }}>
          Your account
        </Link>
        <Button onClick={() => logout.mutate()} busy={logout.isPending}>
          Log out
        </Button>
      </div>
    </div>
  )
}
