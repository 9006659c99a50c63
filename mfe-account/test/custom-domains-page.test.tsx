import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLAN_FEATURES, TENANT_PERMISSIONS } from '@console/shared/access';
import type { DnsRecord, SendingDomain } from '@console/shared/contracts';
import { consoleStore, type ConsoleState, type ConsoleUser } from '@console/shared/session';
import { notify } from '@console/shared/ui';
import CustomDomainsPage from '../src/pages/custom-domains-page';
import { fakeGateway, json, makeUser, renderPage } from './account-kit';
import { bodyOf, signInAs } from '../../jest/fake-gateway';

jest.setTimeout(20_000);

function recordsOf(domain: string, state: DnsRecord['state'] = 'pending'): DnsRecord[] {
  const r = (kind: DnsRecord['kind'], type: DnsRecord['type'], name: string, value: string, required: boolean) => ({
    kind,
    type,
    name,
    value,
    required,
    state,
    found: null,
  });
  return [
    r('verification', 'TXT', `_console-verification.${domain}`, 'console-verification=tok123', true),
    r('spf', 'TXT', domain, 'v=spf1 include:_spf.console.example ~all', true),
    r('dkim', 'TXT', `cc1._domainkey.${domain}`, 'v=DKIM1; k=rsa; p=MIIBIjAN', true),
    r('dmarc', 'TXT', `_dmarc.${domain}`, 'v=DMARC1; p=none;', true),
    r('tracking', 'CNAME', `track.${domain}`, 'track.console.example', false),
  ];
}

function makeDomain(id: string, domain: string, over: Partial<SendingDomain> = {}): SendingDomain {
  return {
    _id: id,
    domain,
    status: 'pending',
    records: recordsOf(domain),
    verified_at: null,
    last_checked_at: null,
    created_at: '2026-05-01T09:00:00.000Z',
    ...over,
  };
}

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

/** A gateway that keeps the domains it was given (and adds, verifies, deletes like the real one). */
function gateway(start: SendingDomain[], verifyAs?: (d: SendingDomain) => SendingDomain | Promise<SendingDomain>) {
  let domains = [...start];
  return fakeGateway({
    'GET /v1/domains': () => json({ records: domains }),
    'POST /v1/domains': (call) => {
      const name = String(bodyOf(call).domain);
      if (name === 'github.io') {
        return json(
          {
            message: 'This is a public suffix.',
            errors: { domain: ['This is a public suffix, not a domain of yours.'] },
          },
          400,
        );
      }
      const added = makeDomain(`d${domains.length + 1}`, name);
      domains = [...domains, added];
      return json(added, 201);
    },
    'POST /v1/domains/:id/verify': async (_call, { id }) => {
      const found = domains.find((d) => d._id === id);
      if (!found) return json({ message: 'This domain does not exist.' }, 404);
      const checked = verifyAs ? await verifyAs(found) : found;
      domains = domains.map((d) => (d._id === id ? checked : d));
      return json(checked);
    },
    'DELETE /v1/domains/:id': (_call, { id }) => {
      domains = domains.filter((d) => d._id !== id);
      return json({ message: 'Domain deleted.' });
    },
  });
}

const table = () => screen.getByRole('table', { name: 'Sending domains' });
const rowOf = (text: string) => {
  const row = within(table()).getByText(text).closest('tr');
  if (!row) throw new Error(`no row for ${text}`);
  return row;
};

/** The page under both of its routes (shell/src/routes.ts): the list and one domain's records. */
const renderDomains = (url = '/account/custom-domains') =>
  renderPage(<CustomDomainsPage />, url, ['/account/custom-domains', '/account/custom-domains/:domain_id']);

describe('Custom Domains', () => {
  it('lists the domains with their status', async () => {
    gateway([
      makeDomain('d1', 'mail.acme.test', {
        status: 'verified',
        records: recordsOf('mail.acme.test', 'verified'),
        last_checked_at: '2026-05-02T10:00:00.000Z',
      }),
      makeDomain('d2', 'news.acme.test'),
      makeDomain('d3', 'old.acme.test', { status: 'failed' }),
    ]);
    renderDomains();
    expect(await screen.findByRole('heading', { level: 1, name: 'Custom Domains' })).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Sending domains' });
    expect(within(rowOf('mail.acme.test')).getByText('Verified')).toBeInTheDocument();
    expect(within(rowOf('news.acme.test')).getByText('Pending')).toBeInTheDocument();
    expect(within(rowOf('old.acme.test')).getByText('Failed')).toBeInTheDocument();
    expect(within(rowOf('news.acme.test')).getByText('—')).toBeInTheDocument();
  });

  it('says so when there are no domains', async () => {
    gateway([]);
    renderDomains();
    expect(await screen.findByText('No domains yet. Add the domain you want to send from.')).toBeInTheDocument();
  });

  it('Add domain: the field error under the field, Escape closes, then adding shows the new records', async () => {
    const gw = gateway([]);
    const user = userEvent.setup({ delay: null });
    renderDomains();
    await screen.findByText(/No domains yet/);

    await user.click(screen.getByRole('button', { name: 'Add domain' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add domain' });
    await waitFor(() => expect(within(dialog).getByLabelText('Domain')).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Add domain' }));
    dialog = await screen.findByRole('dialog', { name: 'Add domain' });
    const field = within(dialog).getByLabelText('Domain');
    // Empty: our own message, no call.
    await user.click(within(dialog).getByRole('button', { name: 'Add domain' }));
    expect(field).toHaveAccessibleDescription('Enter a domain.');
    expect(gw.to('POST', '/v1/domains')).toHaveLength(0);
    // The gateway's field error shows under the field.
    await user.type(field, 'github.io{Enter}');
    await waitFor(() => expect(field).toHaveAccessibleDescription('This is a public suffix, not a domain of yours.'));
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, ' mail.lab.test {Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyOf(gw.to('POST', '/v1/domains').at(-1)!)).toEqual({ domain: 'mail.lab.test' });
    expect(success).toHaveBeenCalledWith('mail.lab.test was added. Publish its DNS records, then verify it.');
    // The new domain's records are shown.
    const detail = await screen.findByRole('region', { name: 'mail.lab.test' });
    expect(within(detail).getByLabelText('DKIM record name')).toHaveValue('cc1._domainkey.mail.lab.test');
  });

  it("a domain's records: names and values to copy, each record's state, what was found instead", async () => {
    const records = recordsOf('news.acme.test').map((r) =>
      r.kind === 'spf' ? { ...r, state: 'failed' as const, found: 'v=spf1 include:_spf.google.com ~all' } : r,
    );
    gateway([makeDomain('d2', 'news.acme.test', { records })]);
    const user = userEvent.setup({ delay: null });
    renderDomains();
    await screen.findByRole('table', { name: 'Sending domains' });
    await user.click(screen.getByRole('button', { name: 'Records of news.acme.test' }));
    const detail = await screen.findByRole('region', { name: 'news.acme.test' });
    const items = within(within(detail).getByRole('list', { name: 'DNS records of news.acme.test' })).getAllByRole(
      'listitem',
    );
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual([
      'Ownership record',
      'SPF record',
      'DKIM record',
      'DMARC record',
      'Click tracking record',
    ]);
    const spf = within(detail).getByRole('listitem', { name: 'SPF record' });
    expect(within(spf).getByText('Wrong value')).toBeInTheDocument();
    expect(within(spf).getByText('v=spf1 include:_spf.google.com ~all')).toBeInTheDocument();
    expect(within(within(detail).getByRole('listitem', { name: 'Click tracking record' })).getByText('Optional'));
    expect(within(within(detail).getByRole('listitem', { name: 'DKIM record' })).getByText('Not found yet'));

    const writeText = jest.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await user.click(within(detail).getByRole('button', { name: 'Copy Ownership record value' }));
    expect(writeText).toHaveBeenLastCalledWith('console-verification=tok123');
    expect(success).toHaveBeenCalledWith('Value copied.', undefined);
    await user.click(within(detail).getByRole('button', { name: 'Copy DKIM record name' }));
    expect(writeText).toHaveBeenLastCalledWith('cc1._domainkey.news.acme.test');

    await user.click(within(detail).getByRole('button', { name: 'Back to domains' }));
    expect(await screen.findByRole('table', { name: 'Sending domains' })).toBeInTheDocument();
  });

  // A domain's records have an address of their own: a reload (or a link) opens them again.
  it("opens a domain's records from their own address, and Records and Back move between addresses", async () => {
    gateway([makeDomain('d1', 'mail.acme.test'), makeDomain('d2', 'news.acme.test')]);
    const user = userEvent.setup({ delay: null });
    renderDomains('/account/custom-domains/d2');
    const detail = await screen.findByRole('region', { name: 'news.acme.test' });
    expect(within(detail).getByRole('list', { name: 'DNS records of news.acme.test' })).toBeInTheDocument();
    await user.click(within(detail).getByRole('button', { name: 'Back to domains' }));
    await screen.findByRole('table', { name: 'Sending domains' });
    await user.click(screen.getByRole('button', { name: 'Records of mail.acme.test' }));
    expect(await screen.findByRole('region', { name: 'mail.acme.test' })).toBeInTheDocument();
  });

  it('Verify: shows progress, then the result and the new record states', async () => {
    let release: () => void = () => undefined;
    const gw = gateway([makeDomain('d1', 'mail.acme.test')], async (d) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return {
        ...d,
        status: 'verified',
        records: recordsOf(d.domain, 'verified'),
        verified_at: '2026-05-03T10:00:00.000Z',
        last_checked_at: '2026-05-03T10:00:00.000Z',
      };
    });
    const user = userEvent.setup({ delay: null });
    renderDomains();
    await screen.findByRole('table', { name: 'Sending domains' });
    await user.click(screen.getByRole('button', { name: 'Records of mail.acme.test' }));
    const detail = await screen.findByRole('region', { name: 'mail.acme.test' });
    expect(within(detail).getByText('Pending')).toBeInTheDocument();
    await user.click(within(detail).getByRole('button', { name: 'Verify' }));
    expect(await within(detail).findByText('Checking the DNS records…')).toBeInTheDocument();
    expect(within(detail).getByRole('button', { name: /Verify/ })).toBeDisabled();
    release();
    expect(await within(detail).findByText('mail.acme.test is verified. You can send from it.')).toBeInTheDocument();
    expect(within(detail).getAllByText('Verified').length).toBeGreaterThanOrEqual(6); // the domain and its 5 records
    expect(gw.to('POST', '/v1/domains/d1/verify')).toHaveLength(1);
  });

  it('Verify that does not pass names the records to fix; a failed call shows its message', async () => {
    let calls = 0;
    gateway([makeDomain('d1', 'mail.acme.test')], (d) => {
      calls += 1;
      if (calls === 2) throw new Error('unreachable');
      return {
        ...d,
        records: d.records.map((r) => (r.kind === 'verification' ? { ...r, state: 'verified' as const } : r)),
      };
    });
    const user = userEvent.setup({ delay: null });
    renderDomains();
    await screen.findByRole('table', { name: 'Sending domains' });
    await user.click(screen.getByRole('button', { name: 'Records of mail.acme.test' }));
    const detail = await screen.findByRole('region', { name: 'mail.acme.test' });
    await user.click(within(detail).getByRole('button', { name: 'Verify' }));
    expect(
      await within(detail).findByText(/mail\.acme\.test is not verified yet: check the SPF, DKIM, DMARC records\./),
    ).toBeInTheDocument();
    expect(within(within(detail).getByRole('listitem', { name: 'Ownership record' })).getByText('Verified'));
    // The second check cannot reach the gateway: the error is said, the button works again.
    await user.click(within(detail).getByRole('button', { name: 'Verify' }));
    expect(await within(detail).findByRole('alert')).toHaveTextContent(
      'The server could not be reached. Check your connection and try again.',
    );
    expect(within(detail).getByRole('button', { name: 'Verify' })).toBeEnabled();
  });

  it('Delete asks first; Cancel keeps the domain, Delete removes it', async () => {
    const gw = gateway([makeDomain('d1', 'mail.acme.test'), makeDomain('d2', 'news.acme.test')]);
    const user = userEvent.setup({ delay: null });
    renderDomains();
    await screen.findByRole('table', { name: 'Sending domains' });
    await user.click(screen.getByRole('button', { name: 'Delete news.acme.test' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete news.acme.test?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gw.to('DELETE', '/v1/domains/d2')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete news.acme.test' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete news.acme.test?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gw.to('DELETE', '/v1/domains/d2')).toHaveLength(1);
    await waitFor(() => expect(within(table()).queryByText('news.acme.test')).not.toBeInTheDocument());
    expect(within(table()).getByText('mail.acme.test')).toBeInTheDocument();
    expect(success).toHaveBeenCalledWith('news.acme.test was deleted.');
    expect(failure).not.toHaveBeenCalled();
  });
});
