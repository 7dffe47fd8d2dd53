import type { QueryClient } from '@tanstack/react-query'
import { createRootRouteWithContext, createRoute } from '@tanstack/react-router'
import { AppRoot } from './app-root'
import { AppShell } from './app-shell'
import { meQuery } from './session'

/** The root of every route: every page, the wrong-region page and the sign-in dialog. */
export const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({ component: AppRoot })

/**
 * Every page behind the session: the shell (org switcher, navigation) around them. Its loader
 * asks for the user as the route starts loading, beside the page's code rather than after it
 * (it does not wait for the answer: the shell shows its own loading state).
 */
export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  component: AppShell,
  loader: ({ context }) => void context.queryClient.prefetchQuery(meQuery),
})
