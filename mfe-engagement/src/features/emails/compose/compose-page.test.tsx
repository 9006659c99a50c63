import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AudienceCount, Campaign, Permission } from '@console/shared/contracts';
import { browserTimeZone } from '@console/shared/format';
import { consoleStore } from '@console/shared/session';
import EmailComposePage from '../../../pages/email-compose-page';
import { fakeGateway, json, pageOf, renderPage } from '../../../../test/audience-kit';
import { CONFLICT_MESSAGE } from '../campaign-rules';
import { audienceCount, campaign } from '../test-data';
import { tenantAdmin } from '../../../../../jest/fake-gateway';

jest.setTimeout(30_000);

const list = (id: string, name: string, members: number) => ({
  _id: id,
  name,
  description: '',
  autoimport: false,
  community_id: null,
  member_count: members,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});
const template = {
  _id: 't1',
  name: 'Monthly newsletter',
  kind: 'marketing',
  subject: 'This month in Acme',
  preview_text: '',
  version: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  updated_by: null,
  used_by: { scheduled_emails: 0, active_automations: 0, names: [] },
};

let senderDomains: string[] = [];
afterEach(() => {
  senderDomains = [];
});

function setup(start: Campaign, count: AudienceCount = audienceCount()) {
  const gateway = fakeGateway();
  let current = start;
  gateway.on('GET /v1/campaigns/:id', () => current);
  gateway.on('PATCH /v1/campaigns/:id', ({ json: body }) => {
    const { base_version: _base, ...rest } = body as Record<string, unknown>;
    current = { ...current, ...(rest as Partial<Campaign>), version: current.version + 1 };
    return current;
  });
  gateway.on('GET /v1/lists', () => pageOf([list('l1', 'Newsletter', 10), list('l2', 'Holders', 5)]));
  gateway.on('GET /v1/segments', () =>
    pageOf([
      {
        _id: 's1',
        name: 'Active holders',
        description: '',
        rule: { combinator: 'and', rules: [] },
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      },
    ]),
  );
  gateway.on('POST /v1/campaigns/audience', () => count);
  gateway.on('GET /v1/campaigns/senders', () => ({
    platform_address: 'news@console.test',
    domains: senderDomains,
  }));
  gateway.on('GET /v1/templates/choices', () => pageOf([template]));
  gateway.on('GET /v1/templates/:id/html', () => ({ version: 1, html: '<p>design</p>' }));
  gateway.on('GET /v1/templates/merge-tags', () => ({ groups: [] }));
  gateway.on('GET /v1/contacts', () => pageOf([]));
  gateway.on('POST /v1/campaigns/:id/preview', () => ({
    subject: current.subject,
    preview_text: '',
    html: '<html><body><p>Hello reader</p><script>alert(1)</script></body></html>',
    text: 'Hello reader',
  }));
  return { gateway, current: () => current };
}

const open = (c: Campaign) =>
  renderPage(<EmailComposePage />, {
    path: `/engagement/emails/compose/${c._id}`,
    route: '/engagement/emails/compose/:id?',
  });

test('the count without a wallet mail domain: e-mail only, wallet-only contacts have no address', async () => {
  setup(campaign());
  open(campaign());
  const panel = await screen.findByTestId('audience-count');
  await waitFor(() => expect(within(panel).getByTestId('reachable')).toHaveTextContent('9'));
  expect(panel).toHaveTextContent('By e-mail address');
  expect(panel).not.toHaveTextContent('wallet inbox');
  expect(panel).toHaveTextContent('No address (wallet only)');
  expect(panel).toHaveTextContent('Contacts with only a wallet have no e-mail address');
});

test('the count with a wallet mail domain: a separate wallet inbox line', async () => {
  setup(campaign(), audienceCount({ reachable: 11, wallet: 2, no_address: 0, wallet_mail_domain: 'wallets.example' }));
  open(campaign());
  const panel = await screen.findByTestId('audience-count');
  await waitFor(() => expect(within(panel).getByTestId('reachable')).toHaveTextContent('11'));
  expect(panel).toHaveTextContent('By wallet inbox (@wallets.example)');
  expect(panel).not.toHaveTextContent('No address');
});

test('choosing a segment counts the new audience and autosaves it on the loaded version', async () => {
  const { gateway } = setup(campaign());
  const user = userEvent.setup();
  open(campaign());
  const sendTo = await screen.findByRole('group', { name: 'Send to' });
  await user.click(await within(sendTo).findByRole('checkbox', { name: /Active holders/ }));
  await waitFor(() =>
    expect(gateway.callsTo('PATCH /v1/campaigns/c1').at(-1)?.json).toEqual(
      expect.objectContaining({
        audience: { include_lists: ['l1'], include_segments: ['s1'], exclude_lists: [], exclude_segments: [] },
        base_version: 1,
      }),
    ),
  );
  await waitFor(() =>
    expect(gateway.callsTo('POST /v1/campaigns/audience').at(-1)?.json).toEqual(
      expect.objectContaining({ include_segments: ['s1'] }),
    ),
  );
  expect(await screen.findByTestId('save-status')).toHaveTextContent('Saved');
});

test('a 409 on autosave says another tab saved a newer version and offers to reload', async () => {
  const { gateway } = setup(campaign());
  gateway.on('PATCH /v1/campaigns/:id', () => json({ message: 'This e-mail was changed since you opened it.' }, 409));
  const user = userEvent.setup();
  open(campaign());
  await user.click(await screen.findByRole('tab', { name: /Content/ }));
  await user.type(screen.getByRole('textbox', { name: 'Subject' }), '!');
  const status = await screen.findByTestId('save-status', {}, { timeout: 3000 });
  await waitFor(() => expect(status).toHaveTextContent(CONFLICT_MESSAGE));
  await user.click(within(status).getByRole('button', { name: 'Reload' }));
  await waitFor(() => expect(gateway.callsTo('GET /v1/campaigns/c1').length).toBeGreaterThan(1));
});

test('the steps are tabs: arrow keys, Home and End move between them', async () => {
  setup(campaign());
  const user = userEvent.setup();
  open(campaign());
  const audience = await screen.findByRole('tab', { name: /Audience/ });
  expect(audience).toHaveAttribute('aria-selected', 'true');
  audience.focus();
  await user.keyboard('{ArrowRight}');
  expect(screen.getByRole('tab', { name: /Content/ })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByRole('tab', { name: /Content/ })).toHaveFocus();
  await user.keyboard('{End}');
  expect(screen.getByRole('tab', { name: /Review/ })).toHaveAttribute('aria-selected', 'true');
  await user.keyboard('{ArrowRight}');
  expect(screen.getByRole('tab', { name: /Audience/ })).toHaveAttribute('aria-selected', 'true');
  await user.keyboard('{ArrowLeft}{Home}');
  expect(screen.getByRole('tab', { name: /Audience/ })).toHaveFocus();
});

test('the From address hint names the platform address and the verified domains, or leads to Custom Domains', async () => {
  setup(campaign());
  const user = userEvent.setup();
  const { unmount } = open(campaign());
  await user.click(await screen.findByRole('tab', { name: /Settings/ }));
  const from = screen.getByRole('textbox', { name: 'From address' });
  await waitFor(() =>
    expect(from).toHaveAccessibleDescription(/news@console\.test.*verify it first in Custom Domains/),
  );
  expect(screen.getByRole('link', { name: 'Custom Domains' })).toHaveAttribute('href', '/account/custom-domains');
  unmount();

  senderDomains = ['news.acme.example'];
  setup(campaign());
  open(campaign());
  await user.click(await screen.findByRole('tab', { name: /Settings/ }));
  await waitFor(() =>
    expect(screen.getByRole('textbox', { name: 'From address' })).toHaveAccessibleDescription(
      'Empty: news@console.test. Or any address at news.acme.example (your verified domains).',
    ),
  );
});

test('review lists what is missing, marks its steps and keeps Send now off', async () => {
  const incomplete = campaign({ subject: '', template_id: null });
  setup(incomplete);
  const user = userEvent.setup();
  open(incomplete);
  await user.click(await screen.findByRole('tab', { name: /Review/ }));
  const missing = await screen.findByTestId('incomplete');
  expect(missing).toHaveTextContent('Choose a template.');
  expect(missing).toHaveTextContent('Write a subject.');
  expect(screen.getByRole('tab', { name: /Content/ })).toHaveTextContent('(incomplete)');
  expect(screen.getByRole('tab', { name: /Audience/ })).not.toHaveTextContent('(incomplete)');
  expect(screen.getByRole('button', { name: 'Send now' })).toBeDisabled();
  await user.click(within(missing).getAllByRole('button', { name: 'Go to content' })[0]!);
  expect(screen.getByRole('tab', { name: /Content/ })).toHaveAttribute('aria-selected', 'true');
});

test('review previews in a sandboxed iframe without scripts; Send now confirms with the count', async () => {
  const { gateway } = setup(campaign());
  gateway.on('POST /v1/campaigns/:id/send', () => campaign({ status: 'sending', version: 3 }));
  const user = userEvent.setup();
  open(campaign());
  await user.click(await screen.findByRole('tab', { name: /Review/ }));
  const frame = await screen.findByTitle('E-mail preview, desktop width');
  expect(frame.getAttribute('sandbox')).toBe('');
  expect(frame.getAttribute('srcdoc')).toContain('Hello reader');
  await user.click(screen.getByRole('button', { name: 'Mobile' }));
  expect(await screen.findByTitle('E-mail preview, mobile width')).toBeInTheDocument();

  await waitFor(() => expect(screen.getByRole('button', { name: 'Send now' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Send now' }));
  const dialog = await screen.findByRole('dialog', { name: 'Send this e-mail now?' });
  expect(dialog).toHaveTextContent('9 people will receive it.');
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(gateway.callsTo('POST /v1/campaigns/c1/send')[0]?.json).toEqual({}));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/engagement/emails/log/c1'));
});

test('a 402 shows its message and offers the upgrade flow', async () => {
  const { gateway } = setup(campaign());
  gateway.on('POST /v1/campaigns/:id/send', () =>
    json({ message: 'This send needs 9 e-mails; your plan has 4 left this period (5 short).' }, 402),
  );
  const user = userEvent.setup();
  open(campaign());
  await user.click(await screen.findByRole('tab', { name: /Review/ }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send now' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Send now' }));
  const dialog = await screen.findByRole('dialog', { name: 'Send this e-mail now?' });
  await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
  const alert = await screen.findByText(/5 short/);
  expect(consoleStore.getState().upgrade.open).toBe(false);
  await user.click(
    within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Upgrade your plan' }),
  );
  expect(consoleStore.getState().upgrade.open).toBe(true);
  consoleStore.getState().closeUpgrade();
});

test('schedule sends the wall-clock time of the chosen zone as an instant', async () => {
  const { gateway } = setup(campaign());
  gateway.on('POST /v1/campaigns/:id/send', ({ json: body }) => {
    const b = body as { scheduled_at: string; time_zone: string };
    return campaign({ status: 'scheduled', scheduled_at: b.scheduled_at, time_zone: b.time_zone, version: 3 });
  });
  const user = userEvent.setup();
  open(campaign());
  await user.click(await screen.findByRole('tab', { name: /Review/ }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Schedule' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Schedule' }));
  const dialog = await screen.findByRole('dialog', { name: 'Schedule' });
  const year = new Date().getUTCFullYear() + 1;
  const date = within(dialog).getByLabelText('Date');
  await user.clear(date);
  await user.type(date, `${year}-01-15`);
  const time = within(dialog).getByLabelText('Time');
  await user.clear(time);
  await user.type(time, '09:30');
  await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Time zone' }), 'America/New_York');
  await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
  await waitFor(() =>
    expect(gateway.callsTo('POST /v1/campaigns/c1/send')[0]?.json).toEqual({
      scheduled_at: `${year}-01-15T14:30:00.000Z`,
      time_zone: 'America/New_York',
    }),
  );
  expect(await screen.findByTestId('schedule')).toHaveTextContent('(America/New_York)');
  expect(screen.getByRole('button', { name: 'Unschedule' })).toBeInTheDocument();
});

/** Opens the schedule dialog of a draft with the session user's time zone set to `zone`. */
async function openScheduleAs(zone: string | null) {
  const initial = consoleStore.getState();
  consoleStore.setState({ user: { ...tenantAdmin(['view_engagement_emails']), time_zone: zone } });
  setup(campaign());
  const user = userEvent.setup();
  open(campaign());
  await user.click(await screen.findByRole('tab', { name: /Review/ }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Schedule' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Schedule' }));
  const dialog = await screen.findByRole('dialog', { name: 'Schedule' });
  return { dialog, restore: () => act(() => consoleStore.setState(initial, true)) };
}

test("a new schedule starts in the session user's time zone", async () => {
  const { dialog, restore } = await openScheduleAs('Asia/Tokyo');
  try {
    expect(within(dialog).getByRole('combobox', { name: 'Time zone' })).toHaveValue('Asia/Tokyo');
  } finally {
    restore();
  }
});

test("without a time zone on the session user a new schedule starts in the browser's", async () => {
  const { dialog, restore } = await openScheduleAs(null);
  try {
    expect(within(dialog).getByRole('combobox', { name: 'Time zone' })).toHaveValue(browserTimeZone());
  } finally {
    restore();
  }
});

test('a sent e-mail opens read-only with a link to its log', async () => {
  const sent = campaign({ status: 'sent', started_at: '2026-11-01T10:00:00.000Z' });
  const { gateway } = setup(sent);
  open(sent);
  expect(await screen.findByRole('note')).toHaveTextContent('This e-mail is sent: it can no longer be changed.');
  expect(screen.getByRole('link', { name: 'View the delivery log' })).toHaveAttribute(
    'href',
    '/engagement/emails/log/c1',
  );
  expect(screen.getByRole('textbox', { name: 'E-mail name' })).toHaveAttribute('readonly');
  expect(screen.queryByTestId('save-status')).toBeNull();
  expect(gateway.callsTo('PATCH /v1/campaigns/c1')).toHaveLength(0);
});

/** Signs in a user with `permissions` for one test; returns the restore. */
function signedInWith(permissions: Permission[]) {
  const initial = consoleStore.getState();
  consoleStore.setState({ user: tenantAdmin(permissions) });
  return () => act(() => consoleStore.setState(initial, true));
}

test('staff without templates choose from the marketing templates and cannot edit a design', async () => {
  const restore = signedInWith(['manage_contacts', 'view_engagement_emails']);
  try {
    const { gateway } = setup(campaign({ template_id: null }));
    gateway.on('GET /v1/templates', () => json({ message: 'Forbidden' }, 403));
    const user = userEvent.setup();
    open(campaign({ template_id: null }));
    await user.click(await screen.findByRole('tab', { name: /Content/ }));
    await user.click(await screen.findByRole('radio', { name: 'Monthly newsletter' }));
    expect(screen.queryByText('The templates could not be loaded.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit the design (on a copy)' })).toBeNull();
    expect(gateway.callsTo('GET /v1/templates')).toHaveLength(0);
    await waitFor(() =>
      expect(gateway.callsTo('PATCH /v1/campaigns/c1').at(-1)?.json).toEqual(
        expect.objectContaining({ template_id: 't1' }),
      ),
    );
  } finally {
    restore();
  }
});

test('with no marketing template, staff are told who can make one', async () => {
  const restore = signedInWith(['manage_contacts', 'view_engagement_emails']);
  try {
    const { gateway } = setup(campaign({ template_id: null }));
    gateway.on('GET /v1/templates/choices', () => pageOf([]));
    const user = userEvent.setup();
    open(campaign({ template_id: null }));
    await user.click(await screen.findByRole('tab', { name: /Content/ }));
    expect(
      await screen.findByText(
        'No marketing templates yet. Someone with access to Templates needs to create one first.',
      ),
    ).toBeInTheDocument();
  } finally {
    restore();
  }
});

test('editing the design duplicates the template, saves the copy as the content and opens the designer', async () => {
  const restore = signedInWith(['view_engagement_emails', 'templates']);
  const { gateway } = setup(campaign());
  gateway.on('POST /v1/templates/:id/duplicate', () =>
    json({ ...template, _id: 't2', name: 'Copy of Monthly newsletter', mjml: '<mjml></mjml>', project: null }, 201),
  );
  const user = userEvent.setup();
  open(campaign());
  await user.click(await screen.findByRole('tab', { name: /Content/ }));
  await user.click(await screen.findByRole('button', { name: 'Edit the design (on a copy)' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/engagement/templates/t2'));
  expect(gateway.callsTo('POST /v1/templates/t1/duplicate')).toHaveLength(1);
  expect(gateway.callsTo('PATCH /v1/campaigns/c1').at(-1)?.json).toEqual(
    expect.objectContaining({ template_id: 't2', base_version: 1 }),
  );
  restore();
});

test('a scheduled e-mail shows its schedule; Unschedule makes it a draft again', async () => {
  const scheduled = campaign({
    status: 'scheduled',
    scheduled_at: '2027-01-15T14:30:00.000Z',
    time_zone: 'America/New_York',
  });
  const { gateway } = setup(scheduled);
  gateway.on('POST /v1/campaigns/:id/unschedule', () => campaign({ status: 'draft', version: 2 }));
  const user = userEvent.setup();
  open(scheduled);
  await user.click(await screen.findByRole('tab', { name: /Review/ }));
  expect(await screen.findByTestId('schedule')).toHaveTextContent('Jan 15, 2027, 9:30 AM (America/New_York)');
  await user.click(screen.getByRole('button', { name: 'Unschedule' }));
  await waitFor(() => expect(gateway.callsTo('POST /v1/campaigns/c1/unschedule')).toHaveLength(1));
  expect(await screen.findByRole('button', { name: 'Send now' })).toBeInTheDocument();
  expect(screen.queryByTestId('schedule')).toBeNull();
});
