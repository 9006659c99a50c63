import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Template, TemplateSummary } from '@console/shared/contracts';
import TemplatesPage from '../../pages/templates-page';
import { fakeGateway, json, pagination, renderPage } from '../../../test/audience-kit';
import { signInAs, tenantAdmin } from '../../../../jest/fake-gateway';
import { consoleStore } from '@console/shared/session';

jest.setTimeout(20_000);

const summary = (over: Partial<TemplateSummary>): TemplateSummary => ({
  _id: 't1',
  name: 'Monthly newsletter',
  kind: 'marketing',
  subject: 'This month in Acme',
  preview_text: '',
  version: 4,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
  updated_by: { _id: 'u1', name: 'Alice Acme' },
  used_by: { scheduled_emails: 0, active_automations: 0, names: [] },
  ...over,
});
const newsletter = summary({});
const receipt = summary({
  _id: 't2',
  name: 'Receipt',
  kind: 'transactional',
  subject: '',
  version: 1,
  updated_by: null,
  used_by: { scheduled_emails: 1, active_automations: 2, names: ['Spring drop', 'Welcome series'] },
});
const full = (s: TemplateSummary): Template => ({ ...s, mjml: '<mjml></mjml>', project: null });

/** IntersectionObserver stand-in: `show()` brings every observed element into view. */
function installIntersectionObserver() {
  const observed: { target: Element; callback: IntersectionObserverCallback }[] = [];
  class FakeObserver {
    constructor(private readonly callback: IntersectionObserverCallback) {}
    observe(target: Element) {
      observed.push({ target, callback: this.callback });
    }
    disconnect() {}
    unobserve() {}
    takeRecords() {
      return [];
    }
  }
  Object.defineProperty(window, 'IntersectionObserver', { configurable: true, writable: true, value: FakeObserver });
  return {
    show() {
      for (const { target, callback } of observed.splice(0)) {
        callback(
          [{ target, isIntersecting: true } as unknown as IntersectionObserverEntry],
          {} as IntersectionObserver,
        );
      }
    },
  };
}

/** The platform's designs in the starter gallery (GET /v1/templates/starters). */
let gallery: { _id: string; name: string; subject: string; kind: 'marketing' | 'transactional' }[] = [];
beforeEach(() => {
  gallery = [{ _id: 'g1', name: 'DAO weekly', subject: 'This week in the DAO', kind: 'transactional' }];
});
afterEach(() => {
  consoleStore.setState(initialState, true);
});
const initialState = consoleStore.getState();

function setup(records: TemplateSummary[] = [newsletter, receipt]) {
  const gateway = fakeGateway();
  gateway.on('GET /v1/templates', ({ search }) => {
    const term = (search.get('searchString') ?? '').toLowerCase();
    const rows = records.filter((r) => r.name.toLowerCase().startsWith(term));
    return { records: rows, pagination: pagination(rows.length) };
  });
  gateway.on('GET /v1/templates/:id/html', ({ params }) => ({
    version: 4,
    html: `<html><body><p>Design of ${params.id}</p></body></html>`,
  }));
  gateway.on('GET /v1/templates/starters', () => ({
    records: [
      { key: 'newsletter', name: 'Newsletter', description: 'Monthly news.' },
      { key: 'token-airdrop', name: 'Token airdrop', description: 'Claim your tokens.' },
    ],
    gallery,
  }));
  return gateway;
}

const grid = () => screen.findByRole('table', { name: 'Templates' });
const rowOf = async (name: string) => (await screen.findByRole('link', { name })).closest('tr')!;

test('each row: name linking to the designer, kind, last edited by and when, used by', async () => {
  installIntersectionObserver();
  setup();
  renderPage(<TemplatesPage />);
  const row = await rowOf('Monthly newsletter');
  expect(within(row).getByRole('link', { name: 'Monthly newsletter' })).toHaveAttribute(
    'href',
    '/engagement/templates/t1',
  );
  expect(row).toHaveTextContent('This month in Acme');
  expect(row).toHaveTextContent('Marketing');
  expect(row).toHaveTextContent('2 hours ago');
  expect(row).toHaveTextContent('by Alice Acme');
  expect(row).toHaveTextContent('Not used');
  const other = await rowOf('Receipt');
  expect(other).toHaveTextContent('Transactional');
  expect(other).toHaveTextContent('1 scheduled e-mail, 2 active automations');
  expect(screen.getByText('Showing 1 to 2 of 2 results')).toBeInTheDocument();
});

test('thumbnails load the compiled HTML only once visible, into a sandboxed iframe', async () => {
  const observer = installIntersectionObserver();
  const gateway = setup();
  renderPage(<TemplatesPage />);
  await rowOf('Monthly newsletter');
  expect(gateway.calls.filter((c) => c.path.endsWith('/html'))).toHaveLength(0);
  expect(document.querySelector('iframe')).toBeNull();

  act(() => observer.show());
  await waitFor(() => expect(document.querySelectorAll('iframe')).toHaveLength(2));
  const frame = document.querySelector<HTMLIFrameElement>('iframe')!;
  expect(frame.getAttribute('sandbox')).toBe('');
  expect(frame.getAttribute('srcdoc')).toContain('Design of t1');
  expect(frame).toHaveAttribute('tabindex', '-1');
  expect(frame.closest('[aria-hidden="true"]')).not.toBeNull();
  expect(gateway.callsTo('GET /v1/templates/t1/html')).toHaveLength(1);
});

test('sorts by name, last edited and created; searches; says when nothing matches', async () => {
  installIntersectionObserver();
  const gateway = setup();
  const user = userEvent.setup();
  renderPage(<TemplatesPage />);
  await grid();
  const lastQuery = () => gateway.callsTo('GET /v1/templates').at(-1)!.search;
  expect(lastQuery().get('sortField')).toBe('updated_at');
  expect(lastQuery().get('sortOrder')).toBe('desc');

  await user.click(screen.getByRole('button', { name: /^Name/ }));
  await waitFor(() => expect(lastQuery().get('sortField')).toBe('name'));
  await user.click(screen.getByRole('button', { name: /^Created/ }));
  await waitFor(() => expect(lastQuery().get('sortField')).toBe('created_at'));
  await user.click(screen.getByRole('button', { name: /^Last edited/ }));
  await waitFor(() => expect(lastQuery().get('sortField')).toBe('updated_at'));

  await user.type(screen.getByRole('searchbox', { name: 'Search templates' }), 'zz');
  expect(await screen.findByText('No templates match your search.', {}, { timeout: 3000 })).toBeInTheDocument();
  expect(lastQuery().get('searchString')).toBe('zz');
});

test('an empty account says so', async () => {
  setup([]);
  renderPage(<TemplatesPage />);
  expect(await screen.findByText('No templates yet.')).toBeInTheDocument();
});

test('create from a starter posts it and opens the designer', async () => {
  installIntersectionObserver();
  const gateway = setup();
  gateway.on('POST /v1/templates', () => json(full(summary({ _id: 'new1', name: 'Token airdrop' })), 201));
  const user = userEvent.setup();
  renderPage(<TemplatesPage />, { path: '/engagement/templates' });
  await user.click(await screen.findByRole('button', { name: 'Create template' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create template' });
  expect(within(dialog).getByRole('radio', { name: 'Blank' })).toBeChecked();
  await user.click(await within(dialog).findByRole('radio', { name: 'Token airdrop' }));
  expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Token airdrop');
  await user.click(within(dialog).getByRole('button', { name: 'Create and open' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/engagement/templates/new1'));
  expect(gateway.callsTo('POST /v1/templates')[0]?.json).toEqual({
    name: 'Token airdrop',
    kind: 'marketing',
    starter: 'token-airdrop',
    gallery_id: null,
  });
});

test('the gallery shows each starter as a thumbnail, drawn by the server for sample values', async () => {
  const observer = installIntersectionObserver();
  const gateway = setup();
  gateway.on('GET /v1/templates/starters/:key/html', ({ params }) => ({
    html: `<html><body><p>${params.key} for Acme DAO</p></body></html>`,
  }));
  gateway.on('GET /v1/templates/starters/gallery/:id/html', ({ params }) => ({
    html: `<html><body><p>Platform design ${params.id}</p></body></html>`,
  }));
  const user = userEvent.setup();
  renderPage(<TemplatesPage />, { path: '/engagement/templates' });
  await user.click(await screen.findByRole('button', { name: 'Create template' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create template' });
  await within(dialog).findByRole('radio', { name: 'DAO weekly' });
  act(() => observer.show());
  const frames = async () =>
    Array.from(dialog.querySelectorAll('iframe')).map((f) => [f.getAttribute('sandbox'), f.getAttribute('srcdoc')]);
  await waitFor(async () =>
    expect(await frames()).toEqual([
      ['', '<html><body><p>newsletter for Acme DAO</p></body></html>'],
      ['', '<html><body><p>token-airdrop for Acme DAO</p></body></html>'],
      ['', '<html><body><p>Platform design g1</p></body></html>'],
    ]),
  );
  // Pictures only: hidden from assistive technology, the radios keep their names.
  for (const frame of Array.from(dialog.querySelectorAll('iframe'))) {
    expect(frame.closest('[aria-hidden="true"]')).not.toBeNull();
  }
  expect(within(dialog).getByRole('radio', { name: 'Newsletter' })).toBeInTheDocument();
});

test("create from a platform design of the gallery copies it, in the design's kind", async () => {
  installIntersectionObserver();
  const gateway = setup();
  gateway.on('POST /v1/templates', () => json(full(summary({ _id: 'new2', name: 'DAO weekly' })), 201));
  const user = userEvent.setup();
  renderPage(<TemplatesPage />, { path: '/engagement/templates' });
  await user.click(await screen.findByRole('button', { name: 'Create template' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create template' });
  const design = await within(dialog).findByRole('radio', { name: 'DAO weekly' });
  expect(design).toHaveAccessibleDescription('From the platform: This week in the DAO');
  await user.click(design);
  expect(within(dialog).getByRole('combobox', { name: 'Kind' })).toHaveValue('transactional');
  await user.click(within(dialog).getByRole('button', { name: 'Create and open' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/engagement/templates/new2'));
  expect(gateway.callsTo('POST /v1/templates')[0]?.json).toEqual({
    name: 'DAO weekly',
    kind: 'transactional',
    starter: null,
    gallery_id: 'g1',
  });
});

test("a super admin's grid says which templates are in the starter gallery and puts them in or out", async () => {
  installIntersectionObserver();
  gallery = [{ _id: newsletter._id, name: newsletter.name, subject: '', kind: 'marketing' }];
  const gateway = setup();
  gateway.on('PUT /v1/templates/:id/gallery', ({ params, json: body }) => {
    const on = (body as { in_gallery: boolean }).in_gallery;
    gallery = on ? [...gallery, { _id: params.id!, name: 'x', subject: '', kind: 'marketing' }] : [];
    return { in_gallery: on };
  });
  signInAs(consoleStore, { ...tenantAdmin(['templates']), role: 'super_admin' as const });
  const user = userEvent.setup();
  renderPage(<TemplatesPage />);
  const row = await rowOf('Monthly newsletter');
  expect(await within(row).findByText('In the gallery')).toBeInTheDocument();
  await user.click(within(row).getByRole('button', { name: 'Remove Monthly newsletter from the starter gallery' }));
  expect(await within(row).findByText('Not in the gallery')).toBeInTheDocument();
  expect(gateway.callsTo(`PUT /v1/templates/${newsletter._id}/gallery`)[0]?.json).toEqual({ in_gallery: false });
});

test('other users see no gallery column', async () => {
  installIntersectionObserver();
  setup();
  signInAs(consoleStore, tenantAdmin(['templates']));
  renderPage(<TemplatesPage />);
  await rowOf('Monthly newsletter');
  expect(screen.queryByRole('columnheader', { name: 'Starter gallery' })).not.toBeInTheDocument();
});

test('a blank template needs a name', async () => {
  installIntersectionObserver();
  const gateway = setup();
  const user = userEvent.setup();
  renderPage(<TemplatesPage />);
  await user.click(await screen.findByRole('button', { name: 'Create template' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create template' });
  await user.click(within(dialog).getByRole('button', { name: 'Create and open' }));
  expect(await within(dialog).findByText('Name the template.')).toBeInTheDocument();
  expect(gateway.callsTo('POST /v1/templates')).toHaveLength(0);
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

test('duplicate and rename', async () => {
  installIntersectionObserver();
  const gateway = setup();
  gateway.on('POST /v1/templates/:id/duplicate', () =>
    json(full(summary({ _id: 't9', name: 'Copy of Monthly newsletter' })), 201),
  );
  gateway.on('PATCH /v1/templates/:id', ({ json: body }) => ({
    template: full({ ...newsletter, ...(body as object) }),
    warnings: [],
  }));
  const user = userEvent.setup();
  renderPage(<TemplatesPage />);
  await user.click(await screen.findByRole('button', { name: 'Duplicate Monthly newsletter' }));
  await waitFor(() => expect(gateway.callsTo('POST /v1/templates/t1/duplicate')).toHaveLength(1));

  await user.click(screen.getByRole('button', { name: 'Rename Monthly newsletter' }));
  const dialog = await screen.findByRole('dialog', { name: 'Rename template' });
  const name = within(dialog).getByRole('textbox', { name: 'Name' });
  await user.clear(name);
  await user.type(name, 'Acme monthly{Enter}');
  await waitFor(() => expect(gateway.callsTo('PATCH /v1/templates/t1')[0]?.json).toEqual({ name: 'Acme monthly' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

test('delete asks first; a template in use cannot be deleted and the dialog names what uses it', async () => {
  installIntersectionObserver();
  const gateway = setup();
  gateway.on('DELETE /v1/templates/:id', () => ({ message: 'Template deleted.' }));
  const user = userEvent.setup();
  renderPage(<TemplatesPage />);

  await user.click(await screen.findByRole('button', { name: 'Delete Receipt' }));
  const blocked = await screen.findByTestId('template-in-use-dialog');
  expect(blocked).toHaveTextContent('"Receipt" cannot be deleted');
  expect(blocked).toHaveTextContent(
    'It is used by 1 scheduled e-mail, 2 active automations (Spring drop, Welcome series).',
  );
  expect(within(blocked).queryByRole('button', { name: /Delete/ })).toBeNull();
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByTestId('template-in-use-dialog')).toBeNull());

  await user.click(screen.getByRole('button', { name: 'Delete Monthly newsletter' }));
  const confirm = await screen.findByTestId('confirm-dialog');
  expect(confirm).toHaveTextContent('Delete the template "Monthly newsletter"?');
  await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
  await waitFor(() => expect(gateway.callsTo('DELETE /v1/templates/t1')).toHaveLength(1));
  expect(gateway.callsTo('DELETE /v1/templates/t2')).toHaveLength(0);
  await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
});
