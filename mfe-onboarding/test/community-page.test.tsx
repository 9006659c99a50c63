import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notify } from '@console/shared/ui';
import CommunityPage from '../src/pages/community-page';
import { STORAGE, bodyOf, fakeGateway, json, makeCommunity, renderPage, signIn } from './onboarding-kit';

jest.setTimeout(20_000);

const png = () => new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], 'logo.png', { type: 'image/png' });
const jpeg = () => new File([new Uint8Array([255, 216, 255])], 'bg.jpg', { type: 'image/jpeg' });

let success: jest.SpyInstance;

beforeEach(() => {
  signIn(['manage_community', 'company_settings']);
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
  jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => jest.restoreAllMocks());

function existing(extra: Parameters<typeof fakeGateway>[0] = {}) {
  let community = makeCommunity();
  const gw = fakeGateway({
    'GET /v1/communities/my-community': () => json(community),
    'PATCH /v1/communities/:id': (call) => {
      community = { ...community, ...bodyOf(call) };
      return json(community);
    },
    'POST /v1/files/s3-presigned-url': (call) => {
      const { type } = bodyOf(call);
      const key = type === 'image/png' ? 'logo-key' : 'bg-key';
      return json({ url: `${STORAGE}/put/${key}`, fileKey: key, fileUrl: `${STORAGE}/files/${key}` });
    },
    [`PUT ${STORAGE}/put/:key`]: () => new Response(null, { status: 200 }),
    ...extra,
  });
  return gw;
}

async function renderCommunity() {
  const view = renderPage(<CommunityPage />, '/onboarding/community-page');
  await screen.findByRole('form', { name: 'Community page' });
  return view;
}

describe('Community Page form', () => {
  it('shows the stored community with its limits, counters and read-only fields', async () => {
    existing();
    await renderCommunity();
    expect(screen.getByRole('heading', { name: 'Community Page' })).toBeInTheDocument();
    const name = screen.getByLabelText('Community name');
    expect(name).toHaveValue('Acme DAO');
    expect(name).toHaveAttribute('readonly');
    expect(name).toHaveAttribute('maxLength', '255');
    const short = screen.getByLabelText('Short description');
    expect(short).toHaveAttribute('maxLength', '500');
    expect(short).toHaveAccessibleDescription('481/500');
    expect(screen.getByLabelText('Description')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('What you get, item 1')).toHaveAttribute('maxLength', '255');
    const alias = screen.getByLabelText('Alias');
    expect(alias).toHaveValue('acme');
    expect(alias).toHaveAttribute('maxLength', '100');
    expect(alias).toHaveAccessibleDescription(/96\/100/);
    expect(screen.getByRole('img', { name: 'Logo preview' })).toHaveAttribute('src', 'https://cdn.test/logo.png');
    expect(screen.getByLabelText('Logo')).toHaveAttribute('accept', 'image/png,image/jpeg,image/gif,image/webp');
    expect(screen.getByLabelText('Community page URL')).toHaveValue('https://community.test/c/acme');
    const open = screen.getByRole('link', { name: 'Open page' });
    expect(open).toHaveAttribute('href', 'https://community.test/c/acme');
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener');
    expect(screen.getByRole('checkbox', { name: 'Enable community' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'List on public page' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Show on carousel' })).not.toBeChecked();
    const priority = screen.getByRole('combobox', { name: 'Community list and onboarding priority' });
    expect(priority).toHaveValue('20');
    expect(
      within(priority)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['0', '10', '20', '30', '40', '50', '60', '70', '80', '90', '100']);
    expect(screen.getByRole('combobox', { name: 'Carousel priority' })).toHaveValue('0');

    const user = userEvent.setup({ delay: null });
    await user.type(short, 'abc');
    expect(short).toHaveAccessibleDescription('478/500');
  });

  it('links the name to General Settings only for company_settings holders', async () => {
    existing();
    const first = await renderCommunity();
    expect(screen.getByRole('link', { name: 'Change it in General Settings' })).toHaveAttribute(
      'href',
      '/account/general-settings',
    );
    first.unmount();
    signIn(['manage_community']);
    await renderCommunity();
    expect(screen.queryByRole('link', { name: 'Change it in General Settings' })).not.toBeInTheDocument();
  });

  it("'What you get': add and remove, always keeping one empty entry", async () => {
    existing();
    const user = userEvent.setup({ delay: null });
    await renderCommunity();
    await user.click(screen.getByRole('button', { name: 'Add item' }));
    expect(screen.getByLabelText('What you get, item 2')).toHaveValue('');
    await user.type(screen.getByLabelText('What you get, item 2'), 'Airdrops');
    await user.click(screen.getByRole('button', { name: 'Remove item 1' }));
    expect(screen.getByLabelText('What you get, item 1')).toHaveValue('Airdrops');
    await user.click(screen.getByRole('button', { name: 'Remove item 1' }));
    expect(screen.getByLabelText('What you get, item 1')).toHaveValue('');
    expect(screen.queryByLabelText('What you get, item 2')).not.toBeInTheDocument();
  });

  it('saves in order: text without images or alias, presign, PUT without Authorization, PATCH addresses, refetch, toast', async () => {
    let releaseFirst: () => void = () => {};
    const firstSave = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let patches = 0;
    let community = makeCommunity();
    const gw = existing({
      'PATCH /v1/communities/:id': async (call) => {
        patches += 1;
        if (patches === 1) await firstSave;
        community = { ...community, ...bodyOf(call) };
        return json(community);
      },
      'GET /v1/communities/my-community': () => json(community),
    });
    const user = userEvent.setup({ delay: null });
    await renderCommunity();
    await user.upload(screen.getByLabelText('Logo'), png());
    await screen.findByRole('img', { name: 'Logo preview' });
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Logo preview' }).getAttribute('src')).toMatch(/^data:image\/png;base64,/),
    );
    await user.upload(screen.getByLabelText('Background'), jpeg());
    await screen.findByRole('img', { name: 'Background preview' });
    await user.clear(screen.getByLabelText('Alias'));
    await user.type(screen.getByLabelText('Alias'), 'acme-dao');
    const calls = gw.calls.length;

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const busy = await screen.findByRole('button', { name: /Saving\.\.\./ });
    expect(busy).toBeDisabled();
    releaseFirst();
    await waitFor(() => expect(success).toHaveBeenCalledWith('Changes have been saved.'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();

    const made = gw.calls.slice(calls);
    expect(made.map((call) => `${call.method} ${call.path}`)).toEqual([
      'PATCH /v1/communities/comm1',
      'POST /v1/files/s3-presigned-url',
      `PUT ${STORAGE}/put/logo-key`,
      'POST /v1/files/s3-presigned-url',
      `PUT ${STORAGE}/put/bg-key`,
      'PATCH /v1/communities/comm1',
      'GET /v1/communities/my-community',
    ]);
    const [text, presignLogo, putLogo, , putBg, images] = made;
    expect(text?.body).toEqual({
      title: 'Acme DAO',
      description: 'The long description.',
      short_description: 'Builders of things.',
      what_you_get: ['Weekly news'],
      slug: 'acme-dao',
      show: true,
      public: true,
      show_on_carousel: false,
      priority: 20,
      carousel_priority: 0,
    });
    expect(text?.headers.get('authorization')).toBe('Bearer session-token');
    expect(presignLogo?.body).toEqual({ type: 'image/png' });
    expect(putLogo?.headers.get('authorization')).toBeNull();
    expect(putLogo?.headers.get('content-type')).toBe('image/png');
    expect(putBg?.headers.get('content-type')).toBe('image/jpeg');
    expect(images?.body).toEqual({ logo: `${STORAGE}/files/logo-key`, background: `${STORAGE}/files/bg-key` });
    // The form shows what was stored.
    expect(screen.getByRole('img', { name: 'Logo preview' })).toHaveAttribute('src', `${STORAGE}/files/logo-key`);
  });

  it('saves a cleared image as null in the second save', async () => {
    const gw = existing();
    const user = userEvent.setup({ delay: null });
    await renderCommunity();
    await user.click(screen.getByRole('button', { name: 'Clear Logo' }));
    expect(screen.queryByRole('img', { name: 'Logo preview' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Changes have been saved.'));
    const patches = gw.to('PATCH', '/v1/communities/comm1');
    expect(patches).toHaveLength(2);
    expect(patches[0]?.body).not.toHaveProperty('logo');
    expect(patches[1]?.body).toEqual({ logo: null });
    expect(gw.to('POST', '/v1/files/s3-presigned-url')).toHaveLength(0);
  });

  it('a tenant without a community gets an empty form; the first save POSTs, the next PATCHes', async () => {
    let community: ReturnType<typeof makeCommunity> | null = null;
    const gw = fakeGateway({
      'GET /v1/communities/my-community': () =>
        community ? json(community) : json({ message: 'Community not found.' }, 404),
      'POST /v1/communities': (call) => {
        community = makeCommunity({ ...bodyOf(call), _id: 'new1', logo: null });
        return json(community, 201);
      },
      'PATCH /v1/communities/:id': (call) => {
        community = { ...makeCommunity(), ...community, ...bodyOf(call) };
        return json(community);
      },
    });
    const user = userEvent.setup({ delay: null });
    await renderCommunity();
    expect(screen.getByLabelText('Community name')).toHaveValue('Acme DAO');
    expect(screen.getByLabelText('Short description')).toHaveValue('');
    expect(screen.getByLabelText('What you get, item 1')).toHaveValue('');
    expect(screen.queryByLabelText('Community page URL')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Short description'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(success).toHaveBeenCalledTimes(1));
    expect(gw.to('POST', '/v1/communities')[0]?.body).toMatchObject({
      title: 'Acme DAO',
      short_description: 'Hello',
      what_you_get: [],
    });
    expect(gw.to('POST', '/v1/communities')[0]?.body).not.toHaveProperty('alias');
    expect(await screen.findByLabelText('Community page URL')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(success).toHaveBeenCalledTimes(2));
    expect(gw.to('POST', '/v1/communities')).toHaveLength(1);
    expect(gw.to('PATCH', '/v1/communities/new1')).toHaveLength(1);
  });

  it('shows server field errors under their fields and focuses the first one', async () => {
    existing({
      'PATCH /v1/communities/:id': () =>
        json(
          {
            message: 'Check the highlighted fields.',
            errors: {
              slug: ['This alias is taken.'],
              short_description: ['<b>Too</b> short.', 'Second'],
              'what_you_get.0': ['Item too long.'],
            },
          },
          400,
        ),
    });
    const user = userEvent.setup({ delay: null });
    await renderCommunity();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const short = screen.getByLabelText('Short description');
    await waitFor(() => expect(short).toHaveAccessibleDescription('<b>Too</b> short. 481/500'));
    expect(screen.getByLabelText('Alias')).toHaveAccessibleDescription(/^This alias is taken\./);
    expect(screen.getByLabelText('What you get, item 1')).toHaveAccessibleDescription('Item too long.');
    expect(short).toHaveFocus();
    expect(screen.queryByText('Second')).not.toBeInTheDocument();
    expect(success).not.toHaveBeenCalled();
  });

  it('an upload failure after the text save shows under the image field', async () => {
    const gw = existing({ [`PUT ${STORAGE}/put/:key`]: () => new Response(null, { status: 403 }) });
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup({ delay: null });
    await renderCommunity();
    await user.upload(screen.getByLabelText('Logo'), png());
    await screen.findByRole('button', { name: 'Clear Logo' });
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Logo preview' }).getAttribute('src')).toMatch(/^data:/),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Logo')).toHaveAccessibleDescription(
        'The image could not be uploaded. Please try again.',
      ),
    );
    expect(screen.getByLabelText('Logo')).toHaveFocus();
    expect(gw.to('PATCH', '/v1/communities/comm1')).toHaveLength(1);
    expect(success).not.toHaveBeenCalled();
  });
});
