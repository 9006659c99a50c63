import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { notify } from '@console/shared/ui';
import { MemoryRouter, Route, Routes, useLocation } from '@console/shared/router';
import type { Applet, Plan } from '@console/shared/contracts';
import AppletsPage from '../src/pages/applets-page';
import { applet, fakeGateway, json, signInAdmin } from './admin-kit';
import { bodyOf } from '../../jest/fake-gateway';
import { TEST_QUERY_OPTIONS } from '../../jest/fake-gateway';

jest.setTimeout(20_000);

function plan(id: string, name: string): Plan {
  return { _id: id, key: 'basic', name, label: '', features: [], grants: [], pricing: [] } as unknown as Plan;
}
const PLANS = [plan('p-basic', 'BASIC'), plan('p-startup', 'START UP')];

const page = (records: Applet[]) => ({
  records,
  pagination: {
    starting: records.length ? 1 : 0,
    ending: records.length,
    count: records.length,
    previous: null,
    next: null,
  },
});

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

function renderAt(url: string) {
  const client = new QueryClient(TEST_QUERY_OPTIONS);
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/applets" element={<AppletsPage />} />
          <Route path="/applets/:applet_id" element={<AppletsPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

let success: jest.SpyInstance;
beforeEach(() => {
  signInAdmin();
  window.localStorage.clear();
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
});
afterEach(() => jest.restoreAllMocks());

describe('Applets grid', () => {
  it('loads with the list query, shows plan names, reloads on sort and after a delete', async () => {
    let records = [applet(), applet({ _id: 'a-2', name: 'Quests', slug: 'quests', plan_ids: [], enabled: false })];
    const gw = fakeGateway({
      'GET /v1/applets': () => json(page(records)),
      'GET /v1/plans': () => json({ records: PLANS }),
      'DELETE /v1/applets/:id': (_call, { id }) => {
        records = records.filter((r) => r._id !== id);
        return json({ message: 'Applet deleted.' });
      },
    });
    const user = userEvent.setup();
    renderAt('/applets');
    const table = await screen.findByRole('table', { name: 'Applets' });
    await within(table).findByText('Token gate');
    expect(gw.lastQuery('GET', '/v1/applets')).toEqual({
      page: '1',
      perPage: '10',
      sortField: 'created_at',
      sortOrder: 'desc',
      searchString: '',
    });
    await within(table).findByText('START UP');
    expect(within(table).getByText('quests')).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(gw.lastQuery('GET', '/v1/applets')?.sortField).toBe('name'));

    const before = gw.to('GET', '/v1/applets').length;
    await user.click(screen.getByRole('button', { name: 'Delete Quests' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this applet?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(gw.to('DELETE', '/v1/applets/a-2')).toHaveLength(1));
    expect(success).toHaveBeenCalledWith('Applet deleted.', expect.anything());
    await waitFor(() => expect(gw.to('GET', '/v1/applets').length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByText('quests')).not.toBeInTheDocument());
  });

  it('New applet opens the form', async () => {
    fakeGateway({
      'GET /v1/applets': () => json(page([])),
      'GET /v1/plans': () => json({ records: PLANS }),
    });
    const user = userEvent.setup();
    renderAt('/applets');
    await screen.findByText('No applets found.');
    await user.click(screen.getByRole('button', { name: 'New applet' }));
    expect(await screen.findByRole('heading', { name: 'New applet' })).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/applets/new');
  });
});

describe('Applet form', () => {
  it('Check fills the module select from the manifest; Save posts the applet; server field errors show', async () => {
    let attempt = 0;
    const gw = fakeGateway({
      'GET /v1/plans': () => json({ records: PLANS }),
      'GET /v1/applets': () => json(page([])),
      'POST /v1/applets/inspect': () => json({ name: 'token_gate', exposes: ['./Page', './Widget'] }),
      'POST /v1/applets': () => {
        attempt += 1;
        return attempt === 1
          ? json(
              {
                message: 'Invalid input',
                errors: {
                  slug: ['Another applet already uses this slug.'],
                  module: ['The manifest does not expose this module.'],
                },
              },
              400,
            )
          : json(applet({ module: './Widget' }), 201);
      },
    });
    const user = userEvent.setup();
    renderAt('/applets/new');
    await user.type(await screen.findByLabelText('Name'), 'Token gate');
    await user.type(screen.getByLabelText('Slug'), 'token-gate');
    const module = screen.getByLabelText('Module');
    expect(module).toBeDisabled();
    await user.click(screen.getByLabelText('Manifest URL'));
    await user.paste('https://applets.example.com/token-gate/mf-manifest.json');
    await user.click(screen.getByRole('button', { name: 'Check' }));

    expect(await screen.findByText('The manifest of token_gate exposes ./Page, ./Widget.')).toBeInTheDocument();
    expect(bodyOf(gw.to('POST', '/v1/applets/inspect')[0]!)).toEqual({
      manifest_url: 'https://applets.example.com/token-gate/mf-manifest.json',
    });
    expect(
      within(module)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['./Page', './Widget']);
    expect(module).toHaveValue('./Page');
    await user.selectOptions(module, './Widget');
    await user.click(await screen.findByLabelText('START UP'));

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Another applet already uses this slug.')).toBeInTheDocument();
    expect(screen.getByText('The manifest does not expose this module.')).toBeInTheDocument();
    expect(screen.getByLabelText('Slug')).toHaveAttribute('aria-invalid', 'true');
    expect(bodyOf(gw.to('POST', '/v1/applets')[0]!)).toEqual({
      name: 'Token gate',
      slug: 'token-gate',
      description: '',
      icon: null,
      manifest_url: 'https://applets.example.com/token-gate/mf-manifest.json',
      module: './Widget',
      plan_ids: ['p-startup'],
      enabled: true,
    });

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/applets$/));
    expect(success).toHaveBeenCalledWith('Applet saved.');
  });

  it('an unreadable manifest shows the gateway’s reason under Manifest URL; a bad address is caught first', async () => {
    const gw = fakeGateway({
      'GET /v1/plans': () => json({ records: PLANS }),
      'POST /v1/applets/inspect': () =>
        json(
          {
            message: 'Invalid input',
            errors: {
              manifest_url: [
                'The manifest could not be read: its address is private (loopback, link-local or a private network).',
              ],
            },
          },
          400,
        ),
    });
    const user = userEvent.setup();
    renderAt('/applets/new');
    const address = await screen.findByLabelText('Manifest URL');
    await user.type(address, 'ftp://x');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('Enter an http:// or https:// address.')).toBeInTheDocument();
    expect(gw.to('POST', '/v1/applets/inspect')).toHaveLength(0);

    await user.clear(address);
    await user.click(address);
    await user.paste('http://10.0.0.1/mf-manifest.json');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText(/its address is private/)).toBeInTheDocument();
    expect(address).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Module')).toBeDisabled();
  });

  it('edits an applet: loads it, keeps its module before a check, PATCHes with the id in the body', async () => {
    const gw = fakeGateway({
      'GET /v1/plans': () => json({ records: PLANS }),
      'GET /v1/applets/:id': () => json(applet()),
      'GET /v1/applets': () => json(page([applet({ enabled: false })])),
      'PATCH /v1/applets/:id': (call) => json({ ...applet(), ...bodyOf(call) }),
    });
    const user = userEvent.setup();
    renderAt('/applets/a-1');
    expect(await screen.findByRole('heading', { name: 'Edit applet' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Name')).toHaveValue('Token gate');
    expect(screen.getByLabelText('Module')).toHaveValue('./Page');
    expect(await screen.findByLabelText('START UP')).toBeChecked();
    expect(screen.getByLabelText('BASIC')).not.toBeChecked();
    await user.click(screen.getByLabelText('Enabled'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(gw.to('PATCH', '/v1/applets/a-1')).toHaveLength(1));
    expect(bodyOf(gw.to('PATCH', '/v1/applets/a-1')[0]!)).toMatchObject({
      _id: 'a-1',
      enabled: false,
      module: './Page',
    });
    await waitFor(() => expect(success).toHaveBeenCalledWith('Applet saved.'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/applets$/));
  });
});
