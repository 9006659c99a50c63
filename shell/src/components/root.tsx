import { Link, Outlet, isRouteErrorResponse, useRouteError } from '@console/shared/router';
import { ApiError } from '@console/shared/api';
import { ConsoleToaster } from '@console/shared/ui';
import { DialogsHost } from './dialogs-host';
import { useSupportWidget } from '../support-widget';

/** Everything the shell keeps mounted across routes: the page, dialogs and the single Toaster. */
export function Root() {
  useSupportWidget();
  return (
    <>
      <Outlet />
      <DialogsHost />
      <ConsoleToaster />
    </>
  );
}

export function Booting() {
  return (
    <div role="status" aria-live="polite" className="flex min-h-screen items-center justify-center text-slate-500">
      Loading your console…
    </div>
  );
}

export function RouteError() {
  const error = useRouteError();
  const message =
    error instanceof ApiError
      ? error.message
      : isRouteErrorResponse(error)
        ? `${error.status} ${error.statusText}`
        : 'Something went wrong.';
  return (
    <main className="mx-auto max-w-lg p-10">
      <h1 className="text-xl font-semibold">We could not open this page</h1>
      <p role="alert" className="mt-3 text-slate-700">
        {message}
      </p>
      <button
        type="button"
        className="mt-6 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white"
        onClick={() => window.location.reload()}
      >
        Try again
      </button>
    </main>
  );
}

export function NotFound() {
  return (
    <main className="mx-auto max-w-lg p-10">
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="mt-3 text-slate-700">There is nothing at this address.</p>
      <Link className="mt-6 inline-block text-brand-700 underline" to="/">
        Go to the overview
      </Link>
    </main>
  );
}
