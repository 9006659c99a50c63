/**
 * Test kit for the account screens: the shared fake gateway behind `fetch` (jest/fake-gateway, records
 * every call), a session user, and a render with a fresh query cache, a router and the shell's
 * information dialog bound to the shared store (the shell hosts it in the app).
 */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from '@console/shared/router';
import { DEFAULT_CONFIG, setRuntimeConfig } from '@console/shared/config';
import { consoleStore, useConsole } from '@console/shared/session';
import { Dialog } from '@console/shared/overlays';
import { SafeHtml } from '@console/shared/html';
import { Button } from '@console/shared/ui';
import type { ConsoleUser } from '@console/shared/session';
import type { Permission } from '@console/shared/contracts';
import {
  GATEWAY,
  TEST_QUERY_OPTIONS,
  fakeGateway as installGateway,
  signInAs,
  tenantAdmin,
  type FakeRoutes,
} from '../../jest/fake-gateway';

export { GATEWAY, json, type Call } from '../../jest/fake-gateway';

/** Installs the fake gateway (jest/fake-gateway) on globalThis.fetch and points the runtime config at it. */
export function fakeGateway(routes: FakeRoutes) {
  setRuntimeConfig({ ...DEFAULT_CONFIG, gatewayUrl: GATEWAY });
  return installGateway(routes);
}

export function makeUser(permissions: Permission[] = ['company_settings']): ConsoleUser {
  return tenantAdmin(permissions);
}

export function signIn(permissions?: Permission[]) {
  signInAs(consoleStore, makeUser(permissions));
}

/**
 * A stand-in for the shell's information dialog (a remote does not import the shell): the store's
 * info request shown as a dialog with its title and sanitised text, as the shell's dialogs host does.
 */
function InfoDialogHost() {
  const info = useConsole((s) => s.info);
  return (
    <Dialog
      open={info !== null}
      title={info?.title ?? ''}
      onClose={() => consoleStore.getState().closeInfo()}
      footer={<Button onClick={() => consoleStore.getState().closeInfo()}>Close Window</Button>}
    >
      <SafeHtml html={info?.html ?? ''} />
    </Dialog>
  );
}

/** Renders a page under a router and a fresh query cache, with the store's information dialog. */
/** Renders a page at `url`, under the route table's `paths` of that page (any path by default). */
export function renderPage(element: ReactElement, url = '/', paths: readonly string[] = ['*']) {
  const client = new QueryClient(TEST_QUERY_OPTIONS);
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          {paths.map((path) => (
            <Route key={path} path={path} element={element} />
          ))}
        </Routes>
      </MemoryRouter>
      <InfoDialogHost />
    </QueryClientProvider>,
  );
  return { ...result, client };
}
