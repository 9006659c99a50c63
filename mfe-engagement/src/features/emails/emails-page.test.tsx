import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CampaignSummary } from '@console/shared/contracts';
import EmailsPage from '../../pages/emails-page';
import { fakeGateway, json, pagination, renderPage } from '../../../test/audience-kit';
import { campaign, stats, summary } from './test-data';

jest.setTimeout(20_000);

const rows: CampaignSummary[] = [
  summary({ _id: 'd1', name: 'Draft one' }),
  summary({ _id: 's1', name: 'Scheduled one', status: 'scheduled', scheduled_at: '2026-12-01T09:00:00.000Z' }),
  summary({
    _id: 'g1',
    name: 'Going out',
    status: 'sending',
    started_at: '2026-11-01T10:00:00.000Z',
    stats: stats({ recipients: 200, sent: 120, delivered: 100, opened: 40, open_rate: 0.4, click_rate: 0.125 }),
  }),
  summary({ _id: 'p1', name: 'On hold', status: 'paused', started_at: '2026-11-01T10:00:00.000Z' }),
  summary({
    _id: 'x1',
    name: 'Done',
    status: 'sent',
    started_at: '2026-11-01T10:00:00.000Z',
    finished_at: '2026-11-01T11:00:00.000Z',
  }),
];

function setup(records = rows) {
  const gateway = fakeGateway();
  gateway.on('GET /v1/campaigns', ({ search }) => {
    const status = search.get('status');
    const shown = records.filter((r) => !status || r.status === status);
    return { records: shown, pagination: pagination(shown.length) };
  });
  return gateway;
}

const rowOf = async (name: string) => (await screen.findByRole('link', { name })).closest('tr')!;
/** What an element shows: its text without the visually hidden parts. */
function visibleText(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  copy.querySelectorAll('.sr-only').forEach((hidden) => hidden.remove());
  return (copy.textContent ?? '').trim();
}
const actionsOf = (row: HTMLElement) =>
  Array.from(within(row).getByTestId('row-actions').querySelectorAll('a, button')).map(visibleText);

test('rows show status, figures and rates, with the actions their status allows', async () => {
  setup();
  renderPage(<EmailsPage />);
  const sending = await rowOf('Going out');
  expect(sending).toHaveTextContent('Sending');
  expect(sending).toHaveTextContent('40%');
  expect(sending).toHaveTextContent('12.5%');
  expect(actionsOf(sending)).toEqual(['View log', 'Duplicate', 'Pause', 'Cancel']);
  expect(actionsOf(await rowOf('Draft one'))).toEqual(['Edit', 'Duplicate', 'Delete']);
  const draftRow = await rowOf('Draft one');
  expect(draftRow).toHaveTextContent('—');
  expect(actionsOf(await rowOf('Scheduled one'))).toEqual(['Edit', 'Duplicate', 'Cancel']);
  expect(actionsOf(await rowOf('On hold'))).toEqual(['View log', 'Duplicate', 'Resume', 'Cancel']);
  expect(actionsOf(await rowOf('Done'))).toEqual(['View log', 'Duplicate']);
  expect(within(await rowOf('Done')).getByRole('link', { name: 'Done' })).toHaveAttribute(
    'href',
    '/engagement/emails/log/x1',
  );
});

test("every row action's accessible name contains its visible text (WCAG 2.5.3 Label in Name)", async () => {
  setup();
  renderPage(<EmailsPage />);
  const done = await rowOf('Done');
  const log = within(done).getByRole('link', { name: 'View log of Done' });
  expect(log).not.toHaveAttribute('aria-label');
  expect(log).toHaveAttribute('href', '/engagement/emails/log/x1');
  for (const name of rows.map((r) => r.name)) {
    const actions = within(await rowOf(name)).getByTestId('row-actions');
    for (const el of Array.from(actions.querySelectorAll<HTMLElement>('a, button'))) {
      // The actions are named by an aria-label or by their content (no aria-labelledby).
      const accessibleName = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim();
      expect(accessibleName.toLowerCase()).toContain(visibleText(el).toLowerCase());
    }
  }
});

test('the status filter is sent to the gateway', async () => {
  const gateway = setup();
  const user = userEvent.setup();
  renderPage(<EmailsPage />);
  await rowOf('Draft one');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'paused');
  await waitFor(() => expect(gateway.callsTo('GET /v1/campaigns').at(-1)!.search.get('status')).toBe('paused'));
  await waitFor(() => expect(screen.queryByRole('link', { name: 'Draft one' })).toBeNull());
});

test('cancel asks first, then posts; Escape closes the question without cancelling', async () => {
  const gateway = setup();
  gateway.on('POST /v1/campaigns/:id/cancel', () => campaign({ _id: 'g1', status: 'cancelled' }));
  const user = userEvent.setup();
  renderPage(<EmailsPage />);
  await user.click(within(await rowOf('Going out')).getByRole('button', { name: 'Cancel Going out' }));
  let dialog = await screen.findByRole('dialog', { name: 'Cancel this e-mail?' });
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(gateway.callsTo('POST /v1/campaigns/g1/cancel')).toHaveLength(0);

  await user.click(within(await rowOf('Going out')).getByRole('button', { name: 'Cancel Going out' }));
  dialog = await screen.findByRole('dialog', { name: 'Cancel this e-mail?' });
  expect(dialog).toHaveTextContent('Nobody else will receive "Going out"');
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(gateway.callsTo('POST /v1/campaigns/g1/cancel')).toHaveLength(1));
});

test('delete a draft after confirming (204)', async () => {
  const gateway = setup();
  gateway.on('DELETE /v1/campaigns/:id', () => new Response(null, { status: 204 }));
  const user = userEvent.setup();
  renderPage(<EmailsPage />);
  await user.click(within(await rowOf('Draft one')).getByRole('button', { name: 'Delete Draft one' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete this e-mail?' });
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(gateway.callsTo('DELETE /v1/campaigns/d1')).toHaveLength(1));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

test('pause posts at once', async () => {
  const gateway = setup();
  gateway.on('POST /v1/campaigns/:id/pause', () => campaign({ _id: 'g1', status: 'paused' }));
  const user = userEvent.setup();
  renderPage(<EmailsPage />);
  await user.click(within(await rowOf('Going out')).getByRole('button', { name: 'Pause Going out' }));
  await waitFor(() => expect(gateway.callsTo('POST /v1/campaigns/g1/pause')).toHaveLength(1));
});

test('create names the e-mail, posts it and opens compose', async () => {
  const gateway = setup();
  gateway.on('POST /v1/campaigns', () => json(campaign({ _id: 'new1', name: 'Winter' }), 201));
  const user = userEvent.setup();
  renderPage(<EmailsPage />, { path: '/engagement/emails' });
  await user.click(await screen.findByRole('button', { name: 'Create e-mail' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create e-mail' });
  await user.click(within(dialog).getByRole('button', { name: 'Create and compose' }));
  expect(await within(dialog).findByText('Name the e-mail.')).toBeInTheDocument();
  await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Winter');
  await user.click(within(dialog).getByRole('button', { name: 'Create and compose' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/engagement/emails/compose/new1'));
  expect(gateway.callsTo('POST /v1/campaigns')[0]?.json).toEqual({ name: 'Winter' });
});

test('while a row is sending the grid is fetched again', async () => {
  jest.useFakeTimers({ advanceTimers: true });
  try {
    const gateway = setup();
    renderPage(<EmailsPage />);
    await rowOf('Going out');
    const before = gateway.callsTo('GET /v1/campaigns').length;
    await act(async () => {
      await jest.advanceTimersByTimeAsync(3500);
    });
    expect(gateway.callsTo('GET /v1/campaigns').length).toBeGreaterThan(before);
  } finally {
    jest.useRealTimers();
  }
});

test('no polling when nothing is sending', async () => {
  jest.useFakeTimers({ advanceTimers: true });
  try {
    const gateway = setup(rows.filter((r) => r.status !== 'sending'));
    renderPage(<EmailsPage />);
    await rowOf('Draft one');
    const before = gateway.callsTo('GET /v1/campaigns').length;
    await act(async () => {
      await jest.advanceTimersByTimeAsync(7000);
    });
    expect(gateway.callsTo('GET /v1/campaigns').length).toBe(before);
  } finally {
    jest.useRealTimers();
  }
});
