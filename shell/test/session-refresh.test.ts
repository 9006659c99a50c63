import { SESSION_REFRESHED } from '@console/shared/config';
import { consoleStore, type ConsoleUser } from '@console/shared/session';
import { followSessionRefreshes, type RefreshRouter } from '../src/session-refresh';

jest.mock('../src/remotes', () => ({ registerRemotesFor: jest.fn() }));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { registerRemotesFor } = require('../src/remotes') as { registerRemotesFor: jest.Mock };

// Spec section 4: after a refresh of the session user, the guard's rule applies to the page shown,
// without a reload.
const staff = (permissions: ConsoleUser['permissions'], features: ConsoleUser['features'] = ['manage_contacts']) =>
  ({
    _id: 'u2',
    email: 'staff@acme.test',
    role: 'staff',
    permissions,
    features,
    tenant_id: 't1',
    tenant_name: 'Acme DAO',
    first_name: 'S',
    last_name: 'T',
    avatar: null,
    time_zone: null,
    impersonator: null,
    is_impersonating: false,
    enableExperimentalFeatures: false,
  }) satisfies ConsoleUser;

function routerAt(pathname: string, id: string) {
  const navigate = jest.fn();
  const router: RefreshRouter = {
    state: { location: { pathname }, matches: [{ route: {} }, { route: { id } }] },
    navigate,
  };
  return { router, navigate };
}

let stop: () => void = () => undefined;
beforeEach(() => {
  registerRemotesFor.mockClear();
  consoleStore.setState({ upgrade: { open: false, feature: null } });
});
afterEach(() => stop());

test('a page the refreshed user may no longer open goes to /', () => {
  const { router, navigate } = routerAt('/engagement/contacts', 'engagement/contacts');
  stop = followSessionRefreshes(router);
  consoleStore.setState({ user: staff([]) });
  window.dispatchEvent(new CustomEvent(SESSION_REFRESHED));
  expect(navigate).toHaveBeenCalledWith('/');
  expect(registerRemotesFor).toHaveBeenCalledWith(consoleStore.getState().user);
});

test('a page the plan no longer includes opens the upgrade dialog as it goes to /', () => {
  const { router, navigate } = routerAt('/engagement/contacts', 'engagement/contacts');
  stop = followSessionRefreshes(router);
  consoleStore.setState({ user: staff([], []) });
  window.dispatchEvent(new CustomEvent(SESSION_REFRESHED));
  expect(navigate).toHaveBeenCalledWith('/');
  expect(consoleStore.getState().upgrade).toEqual({ open: true, feature: 'manage_contacts' });
});

test('a page still allowed stays; the remotes the user may now use are registered', () => {
  const { router, navigate } = routerAt('/engagement/contacts', 'engagement/contacts');
  stop = followSessionRefreshes(router);
  consoleStore.setState({ user: staff(['manage_contacts', 'manage_community']) });
  window.dispatchEvent(new CustomEvent(SESSION_REFRESHED));
  expect(navigate).not.toHaveBeenCalled();
  expect(registerRemotesFor).toHaveBeenCalledTimes(1);
});
