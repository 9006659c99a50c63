import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notify } from '@console/shared/ui';
import TransactionalTemplatePage from '../../pages/transactional-template-page';
import { fakeGateway, pagination, renderPage } from '../../../test/audience-kit';

jest.setTimeout(20_000);

function setup() {
  const gateway = fakeGateway();
  gateway.on('GET /v1/transactional/templates/:id', ({ params }) => ({
    _id: params.id,
    name: 'Receipt',
    variables: ['amount', 'order.id'],
    settings: { send_to_unsubscribed: true, track_opens: true, track_clicks: true },
    stats: {
      recipients: 3,
      sent: 3,
      delivered: 3,
      bounced: 0,
      failed: 0,
      unconfirmed: 0,
      opened: 0,
      clicked: 0,
      unsubscribed: 0,
      complained: 0,
      open_rate: 0,
      click_rate: 0,
    },
  }));
  gateway.on('PUT /v1/transactional/templates/:id/settings', ({ json }) => json);
  gateway.on('GET /v1/transactional/templates/:id/log/timeline', () => ({ bucket_seconds: 60, buckets: [] }));
  gateway.on('GET /v1/transactional/templates/:id/log/links', () => ({ records: [] }));
  gateway.on('GET /v1/transactional/templates/:id/log/recipients', () => ({
    records: [],
    pagination: pagination(0),
    count_capped: false,
  }));
  return gateway;
}

const open = () =>
  renderPage(<TransactionalTemplatePage />, {
    path: '/engagement/transactional-emails/t-1',
    route: '/engagement/transactional-emails/:id',
  });

test('shows the snippets filled with the merge variables, one language at a time', async () => {
  setup();
  open();
  const snippet = await screen.findByTestId('snippet');
  expect(snippet.textContent).toContain('curl -X POST');
  expect(snippet.textContent).toContain('"template_id": "t-1"');
  expect(snippet.textContent).toContain('"id": "<order.id>"');
  expect(snippet.textContent).toContain('$CONSOLE_API_KEY');
  await userEvent.click(screen.getByRole('tab', { name: 'Python (requests)' }));
  expect(screen.getByTestId('snippet').textContent).toContain('requests.post(');
  expect(screen.getByPlaceholderText('Search by recipient or message ID')).toBeTruthy();
});

test('saves the settings and says so', async () => {
  const gateway = setup();
  const success = jest.spyOn(notify, 'success').mockReturnValue('t1');
  open();
  const form = await screen.findByRole('form', { name: 'Settings' });
  await userEvent.click(within(form).getByRole('switch', { name: 'Send to unsubscribed contacts' }));
  await userEvent.click(within(form).getByRole('switch', { name: 'Track clicks' }));
  await userEvent.click(within(form).getByRole('button', { name: 'Save settings' }));
  await waitFor(() => expect(success).toHaveBeenCalledWith('Settings saved.'));
  await waitFor(() => expect(gateway.callsTo('PUT /v1/transactional/templates/t-1/settings')).toHaveLength(1));
  expect(gateway.callsTo('PUT /v1/transactional/templates/t-1/settings')[0]?.json).toEqual({
    send_to_unsubscribed: false,
    track_opens: true,
    track_clicks: false,
  });
});
