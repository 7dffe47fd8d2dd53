import { createLazyRoute, Navigate } from '@tanstack/react-router'

/** The app opens on the catalog. */
export const route = createLazyRoute('/app/')({ component: () => <Navigate to="/catalog" search={{}} /> })
