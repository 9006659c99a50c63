import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLAN_FEATURES, TENANT_PERMISSIONS } from '@console/shared/access';
import type { TeamEvent } from '@console/shared/contracts';
import { formatDateTime } from '@console/shared/format';
import { consoleStore, type ConsoleState, type ConsoleUser } from '@console/shared/session';
import TeamActivityPage from '../src/pages/team-activity-page';
import UsersPage from '../src/pages/users-page';
import { teamEventText } from '../src/features/users/team-event-text';
import { fakeGateway, json, makeUser, renderPage } from './account-kit';
import { pageOf, signInAs } from '../../jest/fake-gateway';

jest.setTimeout(20_000);

const event = (id: string, over: Partial<TeamEvent>): TeamEvent => ({
  _id: id,
  kind: 'invited',
  actor: { _id: 'u1', email: 'owner@lab.test' },
  subject: { _id: null, email: 'nina@example.com' },
  preset: null,
  previous_email: null,
  created_at: '2026-05-03T10:15:00.000Z',
  ...over,
});

const owner = (): ConsoleUser => ({ ...makeUser([...TENANT_PERMISSIONS]), features: [...PLAN_FEATURES.growup] });
const initialState: ConsoleState = consoleStore.getState();
beforeEach(() => {
  window.localStorage.clear();
  signInAs(consoleStore, owner());
});
afterEach(() => consoleStore.setState(initialState, true));

describe('what each event reads as', () => {
  test.each([
    [{ kind: 'invited', preset: 'member' }, 'Invited nina@example.com as Member'],
    [{ kind: 'access_changed', preset: 'admin' }, 'Changed the access of nina@example.com to Admin'],
    [{ kind: 'removed' }, 'Removed nina@example.com from the team'],
    [{ kind: 'impersonated' }, 'Acted as nina@example.com'],
    [{ kind: 'password_changed' }, 'Changed the password of nina@example.com'],
    [
      { kind: 'email_changed', previous_email: 'old@example.com' },
      'Changed the e-mail address old@example.com to nina@example.com',
    ],
  ] as const)('%o', (over, text) => {
    expect(teamEventText(event('e', over))).toBe(text);
  });
});

describe('Team activity', () => {
  it('lists who did what and when, newest first, and searches', async () => {
    const gw = fakeGateway({
      'GET /v1/team-events': () =>
        json(
          pageOf(
            [
              event('e2', { kind: 'access_changed', preset: 'admin', created_at: '2026-05-04T08:00:00.000Z' }),
              event('e1', { kind: 'invited', preset: 'member' }),
            ],
            2,
          ),
        ),
    });
    const user = userEvent.setup({ delay: null });
    renderPage(<TeamActivityPage />, '/account/users/activity');
    expect(await screen.findByRole('heading', { level: 1, name: 'Team activity' })).toBeInTheDocument();
    const grid = await screen.findByRole('table', { name: 'Team activity' });
    await within(grid).findByText('Changed the access of nina@example.com to Admin');
    const first = within(grid).getAllByRole('row')[1];
    expect(first).toHaveTextContent(formatDateTime('2026-05-04T08:00:00.000Z'));
    expect(first).toHaveTextContent('owner@lab.test');
    expect(gw.lastQuery('GET', '/v1/team-events')).toMatchObject({ sortField: 'created_at', sortOrder: 'desc' });
    await user.type(screen.getByLabelText('Search activity'), 'nina');
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/team-events')).toMatchObject({ searchString: 'nina' }), {
      timeout: 3000,
    });
  });

  it("shows the gateway's refusal to a member who is not an owner", async () => {
    signInAs(consoleStore, { ...owner(), role: 'staff' as const });
    fakeGateway({
      'GET /v1/team-events': () => json({ message: "Only the community's owners see its team activity." }, 403),
    });
    renderPage(<TeamActivityPage />, '/account/users/activity');
    expect(await screen.findByText("Only the community's owners see its team activity.")).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Team' })).not.toBeInTheDocument();
  });

  it('Manage Users and Activity are tabs side by side, for owners only', async () => {
    fakeGateway({
      'GET /v1/users': () => json(pageOf([], 0)),
      'GET /v1/invitations': () => json({ records: [] }),
    });
    const { unmount } = renderPage(<UsersPage />, '/account/users');
    const tabs = await screen.findByRole('navigation', { name: 'Team' });
    expect(within(tabs).getByRole('link', { name: 'Members' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Activity' })).toHaveAttribute('href', '/account/users/activity');
    unmount();
    signInAs(consoleStore, { ...owner(), role: 'staff' as const });
    renderPage(<UsersPage />, '/account/users');
    await screen.findByRole('heading', { level: 1, name: 'Manage Users' });
    expect(screen.queryByRole('navigation', { name: 'Team' })).not.toBeInTheDocument();
  });
});
