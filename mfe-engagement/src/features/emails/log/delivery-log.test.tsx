import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import DeliveryLogPage from '../../../pages/delivery-log-page';
import { fakeGateway, pagination, renderPage } from '../../../../test/audience-kit';
import { campaign, stats } from '../test-data';

jest.setTimeout(20_000);

// The chart's chunk (uPlot draws on a canvas jsdom does not have): a stand-in at the module boundary.
const recipient = {
  _id: 'r1',
  contact_id: 'k1',
  address: 'ada@example.com',
  channel: 'email' as const,
  status: 'delivered' as const,
  attempts: 1,
  sent_at: '2026-11-01T10:00:05.000Z',
  opened_at: '2026-11-01T10:05:00.000Z',
  clicked_at: null,
  unsubscribed_at: null,
  error: null,
  soft_bounces: 0,
};

function setup(initial: 'sending' | 'sent' = 'sent') {
  const gateway = fakeGateway();
  const state = { status: initial };
  gateway.on('GET /v1/campaigns/:id', () =>
    campaign({
      status: state.status,
      started_at: '2026-11-01T10:00:00.000Z',
      stats: stats({
        recipients: 200,
        sent: 50,
        delivered: 40,
        opened: 10,
        open_rate: 0.25,
        click_rate: 0.05,
        bounced: 2,
      }),
    }),
  );
  gateway.on('GET /v1/campaigns/:id/log/timeline', () => ({
    bucket_seconds: 60,
    buckets: [
      {
        at: '2026-11-01T10:00:00.000Z',
        sent: 50,
        delivered: 40,
        opened: 10,
        clicked: 2,
        bounced: 2,
        complained: 0,
        unsubscribed: 1,
      },
    ],
  }));
  gateway.on('GET /v1/campaigns/:id/log/recipients', () => ({ records: [recipient], pagination: pagination(1) }));
  gateway.on('GET /v1/campaigns/:id/log/recipients/:rid/events', () => ({
    records: [
      { type: 'sent', at: '2026-11-01T10:00:05.000Z', machine: false, detail: null },
      { type: 'opened', at: '2026-11-01T10:01:00.000Z', machine: true, detail: null },
      { type: 'clicked', at: '2026-11-01T10:06:00.000Z', machine: false, detail: 'https://acme.test/drop' },
    ],
  }));
  gateway.on('GET /v1/campaigns/:id/log/links', () => ({
    records: [{ url: 'https://acme.test/drop', clicks: 7, unique_clicks: 5 }],
  }));
  return Object.assign(gateway, { state });
}

const open = () =>
  renderPage(<DeliveryLogPage />, { path: '/engagement/emails/log/c1', route: '/engagement/emails/log/:id' });

test('figures as cards, the chart or the same figures as a table, and the links with their clicks', async () => {
  setup();
  open();
  const figures = await screen.findByTestId('log-figures');
  expect(figures).toHaveTextContent('Recipients200');
  expect(figures).toHaveTextContent('Open rate25%');
  expect(figures).toHaveTextContent('Click rate5%');
  expect(figures).not.toHaveTextContent('Unconfirmed');
  expect(await screen.findByRole('figure', { name: 'Delivery over time' })).toBeInTheDocument();
  // jsdom has no canvas: the shared chart falls back to its table, and its switch says so.
  await waitFor(() =>
    expect(screen.getByRole('button', { name: 'Show as table' })).toHaveAttribute('aria-pressed', 'true'),
  );
  const table = screen.getByRole('table', { name: 'Delivery over time' });
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent),
  ).toEqual(['Time', 'Sent', 'Delivered', 'Opened', 'Clicked', 'Bounced', 'Complained', 'Unsubscribed']);
  const links = await screen.findByRole('table', { name: 'Links and their clicks' });
  expect(links).toHaveTextContent('https://acme.test/drop75');
  expect(screen.queryByRole('progressbar')).toBeNull();
});

test('messages handed over without an answer are counted as Unconfirmed, with what that means', async () => {
  const gateway = setup();
  gateway.on('GET /v1/campaigns/:id', () =>
    campaign({ status: 'sent', stats: stats({ recipients: 200, sent: 200, delivered: 197, unconfirmed: 3 }) }),
  );
  open();
  const figures = await screen.findByTestId('log-figures');
  expect(figures).toHaveTextContent('Unconfirmed3');
  expect(
    screen.getByText(/3 messages were handed to the mail server without an answer: they may not have arrived/),
  ).toBeInTheDocument();
  expect(screen.getByRole('combobox', { name: /status/i })).toContainHTML('Unconfirmed');
});

test("a recipient's timeline opens in a dialog; machine opens are marked; Escape closes it", async () => {
  setup();
  const user = userEvent.setup();
  open();
  await user.click(await screen.findByRole('button', { name: 'Timeline of ada@example.com' }));
  const dialog = await screen.findByRole('dialog', { name: 'ada@example.com' });
  const timeline = await within(dialog).findByRole('list', { name: 'Timeline' });
  expect(timeline).toHaveTextContent('Sent');
  expect(timeline).toHaveTextContent('by a mail client or scanner, not counted');
  expect(timeline).toHaveTextContent('https://acme.test/drop');
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

test('filters and search go to the recipients query', async () => {
  const gateway = setup();
  const user = userEvent.setup();
  open();
  await screen.findByRole('button', { name: 'Timeline of ada@example.com' });
  await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'bounced');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Event' }), 'clicked');
  const last = () => gateway.callsTo('GET /v1/campaigns/c1/log/recipients').at(-1)!.search;
  await waitFor(() => expect(last().get('status')).toBe('bounced'));
  await waitFor(() => expect(last().get('event')).toBe('clicked'));
});

test('while sending: progress, sent of recipients', async () => {
  setup('sending');
  open();
  const bar = await screen.findByRole('progressbar', { name: 'Sending' });
  expect(bar).toHaveAttribute('aria-valuenow', '25');
  expect(bar).toHaveAttribute('aria-valuetext', '50 of 200 sent');
});

test('when the send ends, the chart, the links and the grid are fetched once more', async () => {
  const gateway = setup('sending');
  open();
  await screen.findByRole('progressbar', { name: 'Sending' });
  await waitFor(() => expect(gateway.callsTo('GET /v1/campaigns/c1/log/timeline').length).toBeGreaterThan(0));
  gateway.state.status = 'sent';
  // The next poll of the summary sees the finished send.
  await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull(), { timeout: 8000 });
  const count = (route: string) => gateway.callsTo(route).length;
  const before = {
    timeline: count('GET /v1/campaigns/c1/log/timeline'),
    links: count('GET /v1/campaigns/c1/log/links'),
    recipients: count('GET /v1/campaigns/c1/log/recipients'),
  };
  await waitFor(() => {
    expect(count('GET /v1/campaigns/c1/log/timeline')).toBeGreaterThanOrEqual(2);
    expect(count('GET /v1/campaigns/c1/log/links')).toBeGreaterThanOrEqual(2);
    expect(count('GET /v1/campaigns/c1/log/recipients')).toBeGreaterThanOrEqual(2);
  });
  // And then no more polling.
  await new Promise((resolve) => setTimeout(resolve, 3500));
  expect(count('GET /v1/campaigns/c1/log/timeline')).toBeLessThanOrEqual(before.timeline + 1);
});
