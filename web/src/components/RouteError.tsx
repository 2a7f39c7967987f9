import { type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { ErrorNotice } from './ErrorNotice.tsx';

/** A screen that could not load: the API's detail, and a retry. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  return (
    <div className="page">
      <h1>Something went wrong</h1>
      <ErrorNotice
        error={error}
        action={
          <button
            type="button"
            className="button"
            onClick={() => {
              reset();
              void router.invalidate();
            }}
          >
            Try again
          </button>
        }
      />
    </div>
  );
}
