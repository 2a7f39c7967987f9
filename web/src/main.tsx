// The app's entry: the theme, one QueryClient (a request that meets an ended session sends the person to
// sign in, once, wherever it was made), the router, and React.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isUnauthenticated, meQuery } from './api/index.ts';
import { applyTheme, storedTheme } from './lib/theme.ts';
import { makeRouter } from './router.tsx';
import './styles.css';

applyTheme(storedTheme());

function signedOut(error: unknown): void {
  if (!isUnauthenticated(error) || router.state.location.pathname === '/sign-in') return;
  queryClient.setQueryData(meQuery.queryKey, null);
  void router.navigate({ to: '/sign-in', search: { redirect: router.state.location.href } });
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: signedOut }),
  mutationCache: new MutationCache({ onError: signedOut }),
  defaultOptions: {
    queries: {
      // The client retries what is worth retrying (network errors, 429, 503); a 4xx is an answer.
      retry: false,
      staleTime: 30_000,
    },
  },
});
const router = makeRouter(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
