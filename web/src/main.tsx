import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { onSessionLost } from './api/client'
import { queryClient } from './app/query-client'
import { router } from './app/routes'
import { meQuery } from './app/session'
import './styles.css'

// A 401 from a record request: the session ended (logout elsewhere, expiry). Asking for the user again
// answers 401 too, and the shell then shows the login page (it alone navigates there, once).
onSessionLost((path) => {
  if (path !== '/api/me') void queryClient.resetQueries({ queryKey: meQuery.queryKey })
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
)
