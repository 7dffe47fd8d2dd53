import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { onSessionLost } from './api/client'
import { queryClient } from './app/query-client'
import { router } from './app/routes'
import { meQuery } from './app/session'
import { signInAgain } from './app/sign-in-again'
import './styles.css'

// A 401 from a request: the session ended (logout elsewhere, expiry). On a page opened with a session,
// the sign-in dialog opens over it (nothing typed is lost; its queries refetch once signed in); a
// page opened without one asks for the user again, which answers 401 too, and the shell shows the login page.
onSessionLost((path) => {
  if (queryClient.getQueryData(meQuery.queryKey) !== undefined) void signInAgain().catch(() => undefined)
  else if (path !== '/api/me') void queryClient.resetQueries({ queryKey: meQuery.queryKey })
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
)
