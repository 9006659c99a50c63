import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLAN_FEATURES, TENANT_PERMISSIONS } from '@console/shared/access';
import type { WebhookAttempt, WebhookEndpoint } from '@console/shared/contracts';
import { consoleStore, type ConsoleState, type ConsoleUser } from '@console/shared/session';
import { notify } from '@console/shared/ui';
import WebhooksPage from '../src/pages/webhooks-page';
import { endpointFormErrors } from '../src/features/webhooks/endpoint-form';
import { fakeGateway, json, makeUser, renderPage } from './account-kit';
import { bodyOf, signInAs } from '../../jest/fake-gateway';

jest.setTimeout(20_000);

const initialState: ConsoleState = consoleStore.getState();
let success: jest.SpyInstance;
let failure: jest.SpyInstance;

beforeEach(() => {
  const owner: ConsoleUser = { ...makeUser([...TENANT_PERMISSIONS]), features: [...PLAN_FEATURES.growup] };
  signInAs(consoleStore, owner);
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
  failure = jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => {
  jest.restoreAllMocks();
  consoleStore.setState(initialState, true);
});

function makeEndpoint(id: string, url: string, over: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    _id: id,
    url,
    description: '',
    events: ['delivered', 'bounced'],
    enabled: true,
    disabled_reason: null,
    last_attempt_at: null,
    last_attempt_ok: null,
    created_at: '2026-05-01T09:00:00.000Z',
    updated_at: '2026-05-01T09:00:00.000Z',
    ...over,
  };
}

const attempt: WebhookAttempt = {
  _id: '1',
  event_id: 'msg_abc',
  type: 'test',
  attempt: 1,
  status_code: 200,
  response_ms: 12,
  error: null,
  response_body: 'ok',
  at: '2026-05-01T10:00:00.000Z',
  next_attempt_at: null,
  state: 'delivered',
};

function gateway(start: WebhookEndpoint[]) {
  let endpoints = [...start];
  const attempts: WebhookAttempt[] = [];
  return fakeGateway({
    'GET /v1/webhooks/endpoints': () => json({ records: endpoints }),
    'POST /v1/webhooks/endpoints': (call) => {
      const body = bodyOf(call);
      if (String(body.url).includes('10.0.0.1')) {
        return json(
          {
            message: 'Check the endpoint.',
            errors: { url: ['This address is private (loopback, link-local or a private network).'] },
          },
          400,
        );
      }
      const made = makeEndpoint(`e${endpoints.length + 1}`, String(body.url), {
        events: body.events as WebhookEndpoint['events'],
      });
      endpoints = [...endpoints, made];
      return json(made, 201);
    },
    'GET /v1/webhooks/endpoints/:id/secret': () => json({ secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0' }),
    'POST /v1/webhooks/endpoints/:id/test': () => {
      attempts.unshift(attempt);
      return json({ attempt });
    },
    'GET /v1/webhooks/endpoints/:id/attempts': () =>
      json({
        records: attempts,
        pagination: {
          starting: attempts.length ? 1 : 0,
          ending: attempts.length,
          count: attempts.length,
          previous: null,
          next: null,
        },
      }),
  });
}

const renderWebhooks = (url = '/account/api-access/webhooks') =>
  renderPage(<WebhooksPage />, url, ['/account/api-access/webhooks']);

describe('endpoint form rule', () => {
  it('needs an http(s) address and at least one event', () => {
    expect(endpointFormErrors({ url: '', description: '', events: [] })).toEqual({
      url: 'Enter an https:// address.',
      events: 'Choose at least one event.',
    });
    expect(endpointFormErrors({ url: 'https://example.com/hook', description: '', events: ['sent'] })).toEqual({});
  });
});

describe('Webhooks', () => {
  it('shows the tabs and the endpoints grid', async () => {
    gateway([
      makeEndpoint('e1', 'https://hooks.acme.test/in', {
        last_attempt_at: '2026-05-02T10:00:00.000Z',
        last_attempt_ok: true,
      }),
    ]);
    renderWebhooks();
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhooks' })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'API access' });
    expect(within(tabs).getByRole('link', { name: 'Webhooks' })).toHaveAttribute('aria-current', 'page');
    const table = await screen.findByRole('table', { name: 'Webhook endpoints' });
    expect(within(table).getByText('https://hooks.acme.test/in')).toBeInTheDocument();
    expect(within(table).getByText('Delivered, Bounced')).toBeInTheDocument();
    expect(within(table).getByText(/succeeded/)).toBeInTheDocument();
    expect(screen.getByLabelText('Node.js verification code')).toHaveTextContent('webhook-signature');
  });

  it('the add dialog: labelled fields, events in a fieldset, focus on the first error, the gateway error on url, Escape closes', async () => {
    const user = userEvent.setup();
    gateway([]);
    renderWebhooks();
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add endpoint' });
    const url = within(dialog).getByLabelText('Endpoint URL');
    await waitFor(() => expect(url).toHaveFocus());
    const events = within(dialog).getByRole('group', { name: 'Events' });
    for (const name of ['Sent', 'Delivered', 'Opened', 'Clicked', 'Bounced', 'Complained', 'Unsubscribed']) {
      expect(within(events).getByRole('checkbox', { name: new RegExp(`^${name}`) })).toBeInTheDocument();
    }
    expect(within(dialog).getByLabelText('Description')).toBeInTheDocument();

    // Nothing chosen: the events' error, and focus moves to the first checkbox.
    await user.type(url, 'https://hooks.acme.test/in');
    for (const box of within(events).getAllByRole('checkbox'))
      if ((box as HTMLInputElement).checked) await user.click(box);
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText('Choose at least one event.')).toBeInTheDocument();
    expect(within(events).getByRole('checkbox', { name: /^Sent/ })).toHaveFocus();

    // The gateway refuses the address: its message shows under the URL, which takes focus.
    await user.click(within(events).getByRole('checkbox', { name: /^Bounced/ }));
    await user.clear(url);
    await user.type(url, 'https://10.0.0.1/in');
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await within(dialog).findByText(/This address is private/)).toBeInTheDocument();
    await waitFor(() => expect(url).toHaveFocus());
    expect(url).toHaveAttribute('aria-invalid', 'true');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add endpoint' })).not.toBeInTheDocument());
  });

  it('adds an endpoint, opens its detail, reveals the secret and sends a test event with a toast', async () => {
    const user = userEvent.setup();
    const calls = gateway([]);
    renderWebhooks();
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add endpoint' });
    await user.type(within(dialog).getByLabelText('Endpoint URL'), 'https://hooks.acme.test/in');
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'https://hooks.acme.test/in' })).toBeInTheDocument();
    expect(success).toHaveBeenCalledWith('Endpoint added.');
    const [posted] = calls.to('POST', '/v1/webhooks/endpoints');
    expect(posted && bodyOf(posted)).toMatchObject({
      url: 'https://hooks.acme.test/in',
      events: ['delivered', 'bounced', 'complained'],
    });

    await user.click(screen.getByRole('button', { name: 'Reveal secret' }));
    expect(await screen.findByRole('textbox', { name: 'Signing secret' })).toHaveValue(
      'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
    );

    await user.click(screen.getByRole('button', { name: 'Send test event' }));
    await waitFor(() =>
      expect(success).toHaveBeenCalledWith('Test event delivered: the endpoint answered 200 in 12 ms.'),
    );
    const log = await screen.findByRole('table', { name: 'Delivery attempts' });
    expect(within(log).getByText('msg_abc')).toBeInTheDocument();
    expect(failure).not.toHaveBeenCalled();
  });
});
