import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Profile } from '@console/shared/contracts';
import { consoleStore, type ConsoleState } from '@console/shared/session';
import { NOT_IMAGE_CONTENT, notify } from '@console/shared/ui';
import ProfilePage from '../src/pages/profile-page';
import { fakeGateway, json, makeUser, renderPage, type Call } from './account-kit';
import { bodyOf, signInAs } from '../../jest/fake-gateway';

jest.setTimeout(20_000);

const SAVED = 'Your profile has been saved.';
const STORAGE = 'http://storage.test/upload/abc';
const FILE_URL = 'http://storage.test/files/abc.png';

function makeProfile(over: Partial<Profile> = {}): Profile {
  return {
    email: 'owner@acme.test',
    pending_email: null,
    first_name: 'Ada',
    last_name: 'Owner',
    avatar: null,
    time_zone: null,
    community_time_zone: 'Europe/Madrid',
    ...over,
  };
}

/** The session user as POST /v1/auth/verify sends it (without the console's client-side flags). */
function verified(over: { first_name?: string; avatar?: string | null; time_zone?: string | null } = {}) {
  const { is_impersonating: _i, enableExperimentalFeatures: _e, ...user } = makeUser();
  return { user: { ...user, time_zone: 'Europe/Madrid', ...over } };
}

const initialState: ConsoleState = consoleStore.getState();
let success: jest.SpyInstance;

beforeEach(() => {
  signInAs(consoleStore, makeUser());
  success = jest.spyOn(notify, 'success').mockReturnValue('t');
});
afterEach(() => {
  jest.restoreAllMocks();
  consoleStore.setState(initialState, true);
});

const field = (name: string) => screen.getByLabelText(name);
const save = () => screen.getByRole('button', { name: 'Save' });

async function renderProfile() {
  renderPage(<ProfilePage />, '/account/profile');
  await screen.findByRole('textbox', { name: 'First name' });
}

/** A promise the test resolves, to hold a call open. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('Your Profile', () => {
  it('shows the profile in labelled fields: e-mail read-only with copy and the password link', async () => {
    fakeGateway({ 'GET /v1/profile': () => json(makeProfile()) });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    expect(screen.getByRole('heading', { level: 1, name: 'Your Profile' })).toBeInTheDocument();
    expect(field('First name')).toHaveValue('Ada');
    expect(field('Last name')).toHaveValue('Owner');
    expect(field('E-mail')).toHaveValue('owner@acme.test');
    expect(field('E-mail')).toHaveAttribute('readonly');
    expect(screen.getByRole('link', { name: 'Change password' })).toHaveAttribute('href', '/account/change-password');
    const zone = screen.getByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue('');
    expect(screen.getByRole('option', { name: 'Community default (Europe/Madrid)' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'America/New York' })).toHaveValue('America/New_York');
    expect(screen.getByText('No image')).toBeInTheDocument();

    const writeText = jest.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await user.click(screen.getByRole('button', { name: 'Copy e-mail address' }));
    expect(writeText).toHaveBeenCalledWith('owner@acme.test');
    expect(success).toHaveBeenCalledWith('E-mail address copied.');
  });

  it('sends only the changed fields, shows Saving... meanwhile, then reloads the session user', async () => {
    const answer = deferred<void>();
    const gw = fakeGateway({
      'GET /v1/profile': () => json(makeProfile()),
      'PATCH /v1/profile': async (call) => {
        await answer.promise;
        return json(makeProfile({ first_name: 'Grace', time_zone: 'Asia/Tokyo', ...bodyOf(call) }));
      },
      'POST /v1/auth/verify': () => json(verified({ first_name: 'Grace', time_zone: 'Asia/Tokyo' })),
    });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    await user.clear(field('First name'));
    await user.type(field('First name'), 'Grace');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Time zone' }), 'Asia/Tokyo');
    await user.click(save());

    const busy = await screen.findByRole('button', { name: /Saving\.\.\./ });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(field('First name')).toHaveAttribute('readonly');
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toBeDisabled();
    answer.resolve();

    await waitFor(() => expect(success).toHaveBeenCalledWith(SAVED));
    expect(gw.to('PATCH', '/v1/profile').map((call: Call) => call.body)).toEqual([
      { first_name: 'Grace', time_zone: 'Asia/Tokyo' },
    ]);
    await waitFor(() => expect(consoleStore.getState().user?.first_name).toBe('Grace'));
    expect(consoleStore.getState().user?.time_zone).toBe('Asia/Tokyo');
    expect(gw.to('POST', '/v1/auth/verify')).toHaveLength(1);
    expect(save()).toBeEnabled();
  });

  it('choosing Community default sends a null time zone', async () => {
    const gw = fakeGateway({
      'GET /v1/profile': () => json(makeProfile({ time_zone: 'Asia/Tokyo' })),
      'PATCH /v1/profile': () => json(makeProfile()),
      'POST /v1/auth/verify': () => json(verified()),
    });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Asia/Tokyo');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Time zone' }), '');
    await user.click(save());
    await waitFor(() => expect(success).toHaveBeenCalledWith(SAVED));
    expect(gw.to('PATCH', '/v1/profile').map((call: Call) => call.body)).toEqual([{ time_zone: null }]);
  });

  it('checks the first name before sending and focuses it', async () => {
    const gw = fakeGateway({ 'GET /v1/profile': () => json(makeProfile()) });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    await user.clear(field('First name'));
    await user.click(save());
    expect(await screen.findByText('Enter your first name.')).toBeInTheDocument();
    expect(field('First name')).toHaveAttribute('aria-invalid', 'true');
    expect(field('First name')).toHaveAccessibleDescription('Enter your first name.');
    expect(field('First name')).toHaveFocus();
    expect(gw.to('PATCH', '/v1/profile')).toHaveLength(0);
  });

  it("shows the server's field errors under their fields and focuses the first one", async () => {
    fakeGateway({
      'GET /v1/profile': () => json(makeProfile()),
      'PATCH /v1/profile': () =>
        json(
          {
            message: 'Invalid request',
            errors: { last_name: ['Use at most 100 characters.'], time_zone: ['Choose a time zone from the list.'] },
          },
          400,
        ),
    });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    await user.type(field('Last name'), 'son');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Time zone' }), 'Asia/Tokyo');
    await user.click(save());
    await waitFor(() => expect(field('Last name')).toHaveAccessibleDescription('Use at most 100 characters.'));
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveAccessibleDescription(
      'Choose a time zone from the list.',
    );
    await waitFor(() => expect(field('Last name')).toHaveFocus());
    expect(success).not.toHaveBeenCalled();
    expect(save()).toBeEnabled();
  });

  it('a message without fields shows as an alert', async () => {
    fakeGateway({
      'GET /v1/profile': () => json(makeProfile()),
      'PATCH /v1/profile': () => json({ message: 'Please try again later.' }, 503),
    });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    await user.type(field('Last name'), 'son');
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent('Please try again later.');
  });

  it('uploads a picked avatar (presign, PUT without Authorization), then saves its address', async () => {
    const gw = fakeGateway({
      'GET /v1/profile': () => json(makeProfile()),
      'POST /v1/files/s3-presigned-url': () => json({ url: STORAGE, fileKey: 'abc.png', fileUrl: FILE_URL }),
      [`PUT ${STORAGE}`]: () => new Response(null, { status: 200 }),
      'PATCH /v1/profile': () => json(makeProfile({ avatar: FILE_URL })),
      'POST /v1/auth/verify': () => json(verified({ avatar: FILE_URL })),
    });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    const file = new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], 'me.png', { type: 'image/png' });
    await user.upload(field('Avatar'), file);
    const preview = await screen.findByRole('img', { name: 'Avatar preview' });
    expect(preview.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(gw.calls).toHaveLength(1); // nothing is uploaded before Save

    await user.click(save());
    await waitFor(() => expect(success).toHaveBeenCalledWith(SAVED));
    expect(gw.sequence()).toEqual([
      'GET /v1/profile',
      'POST /v1/files/s3-presigned-url',
      `PUT ${STORAGE}`,
      'PATCH /v1/profile',
      'POST /v1/auth/verify',
    ]);
    expect(gw.to('POST', '/v1/files/s3-presigned-url')[0]?.body).toEqual({ type: 'image/png' });
    const put = gw.to('PUT', STORAGE)[0];
    expect(put?.headers.get('content-type')).toBe('image/png');
    expect(put?.headers.get('authorization')).toBeNull();
    expect(gw.to('PATCH', '/v1/profile')[0]?.body).toEqual({ avatar: FILE_URL });
    await waitFor(() => expect(consoleStore.getState().user?.avatar).toBe(FILE_URL));
    expect(screen.getByRole('img', { name: 'Avatar preview' })).toHaveAttribute('src', FILE_URL);
  });

  it('a failed upload shows under Avatar, focuses it and saves nothing', async () => {
    const gw = fakeGateway({
      'GET /v1/profile': () => json(makeProfile()),
      'POST /v1/files/s3-presigned-url': () => json({ url: STORAGE, fileKey: 'abc.png', fileUrl: FILE_URL }),
      [`PUT ${STORAGE}`]: () => new Response(null, { status: 403 }),
    });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    await user.upload(field('Avatar'), new File(['RIFF\0\0\0\0WEBPVP8 '], 'me.webp', { type: 'image/webp' }));
    await screen.findByRole('img', { name: 'Avatar preview' });
    await user.click(save());
    await waitFor(() =>
      expect(field('Avatar')).toHaveAccessibleDescription(
        expect.stringContaining('The avatar could not be uploaded. Please try again.'),
      ),
    );
    await waitFor(() => expect(field('Avatar')).toHaveFocus());
    expect(gw.to('PATCH', '/v1/profile')).toHaveLength(0);
    expect(success).not.toHaveBeenCalled();
  });

  // Spec section 5, images only: the bytes decide, not the name; nothing is previewed or uploaded.
  it('says a file named .png that is no image is not one, before previewing or uploading it', async () => {
    const gw = fakeGateway({ 'GET /v1/profile': () => json(makeProfile()) });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    await user.upload(field('Avatar'), new File(['just some text'], 'me.png', { type: 'image/png' }));
    await waitFor(() =>
      expect(field('Avatar')).toHaveAccessibleDescription(expect.stringContaining(NOT_IMAGE_CONTENT)),
    );
    expect(screen.queryByRole('img', { name: 'Avatar preview' })).toBeNull();
    await user.click(save());
    expect(gw.to('POST', '/v1/files/s3-presigned-url')).toHaveLength(0);
  });

  it("the storage's refusal of the bytes shows its own message under Avatar", async () => {
    fakeGateway({
      'GET /v1/profile': () => json(makeProfile()),
      'POST /v1/files/s3-presigned-url': () => json({ url: STORAGE, fileKey: 'abc.png', fileUrl: FILE_URL }),
      [`PUT ${STORAGE}`]: () =>
        json({ message: 'The file is not a PNG image.', errors: { file: ['The file is not a PNG image.'] } }, 400),
    });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    await user.upload(
      field('Avatar'),
      new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], 'me.png', { type: 'image/png' }),
    );
    await screen.findByRole('img', { name: 'Avatar preview' });
    await user.click(save());
    await waitFor(() =>
      expect(field('Avatar')).toHaveAccessibleDescription(expect.stringContaining('The file is not a PNG image.')),
    );
  });

  it('accepts only PNG, JPEG, GIF and WebP images', async () => {
    fakeGateway({ 'GET /v1/profile': () => json(makeProfile()) });
    const user = userEvent.setup({ delay: null, applyAccept: false });
    await renderProfile();
    expect(field('Avatar')).toHaveAttribute('accept', 'image/png,image/jpeg,image/gif,image/webp');
    await user.upload(field('Avatar'), new File(['<svg/>'], 'me.svg', { type: 'image/svg+xml' }));
    expect(await screen.findByText('Choose an image file.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Avatar preview' })).toBeNull();
  });

  it('Remove clears the stored avatar (sent as null)', async () => {
    const gw = fakeGateway({
      'GET /v1/profile': () => json(makeProfile({ avatar: FILE_URL })),
      'PATCH /v1/profile': () => json(makeProfile()),
      'POST /v1/auth/verify': () => json(verified()),
    });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    expect(screen.getByRole('img', { name: 'Avatar preview' })).toHaveAttribute('src', FILE_URL);
    await user.click(screen.getByRole('button', { name: 'Remove Avatar' }));
    expect(screen.queryByRole('img', { name: 'Avatar preview' })).toBeNull();
    await user.click(save());
    await waitFor(() => expect(success).toHaveBeenCalledWith(SAVED));
    expect(gw.to('PATCH', '/v1/profile').map((call: Call) => call.body)).toEqual([{ avatar: null }]);
    expect(gw.to('POST', '/v1/files/s3-presigned-url')).toHaveLength(0);
  });

  it('a profile that cannot be loaded shows the reason and Retry', async () => {
    let fail = true;
    fakeGateway({
      'GET /v1/profile': () => (fail ? json({ message: 'The server is busy.' }, 503) : json(makeProfile())),
    });
    const user = userEvent.setup({ delay: null });
    renderPage(<ProfilePage />, '/account/profile');
    expect(await screen.findByRole('alert')).toHaveTextContent('The server is busy.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('textbox', { name: 'First name' })).toHaveValue('Ada');
  });

  it('changes the e-mail address through a dialog: field errors shown, then the pending address with Cancel change', async () => {
    let attempts = 0;
    const gw = fakeGateway({
      'GET /v1/profile': () => json(makeProfile()),
      'POST /v1/profile/email': () =>
        ++attempts === 1
          ? json(
              { message: 'Invalid input.', errors: { current_password: ['Your current password is not correct.'] } },
              400,
            )
          : json(makeProfile({ pending_email: 'ada@new.test' })),
      'DELETE /v1/profile/email': () => json(makeProfile()),
    });
    const user = userEvent.setup({ delay: null });
    await renderProfile();
    await user.click(screen.getByRole('button', { name: 'Change e-mail address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change e-mail address' });
    // The dialog's focus manager (floating-ui) moves focus into it after it has mounted, not with it.
    await waitFor(() => expect(within(dialog).getByLabelText(/New e-mail address/)).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'Send confirmation link' }));
    expect(within(dialog).getByText('Enter your new e-mail address.')).toBeInTheDocument();
    expect(gw.to('POST', '/v1/profile/email')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/New e-mail address/), 'ada@new.test');
    await user.type(within(dialog).getByLabelText(/Current password/), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Send confirmation link' }));
    expect(await within(dialog).findByText('Your current password is not correct.')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText(/Current password/)).toHaveFocus());

    await user.click(within(dialog).getByRole('button', { name: 'Send confirmation link' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(gw.to('POST', '/v1/profile/email').map((call: Call) => call.body)[1]).toEqual({
      email: 'ada@new.test',
      current_password: 'wrong',
    });
    expect(success).toHaveBeenCalledWith('We have sent a link to ada@new.test. Open it to confirm.');
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for you to confirm ada@new.test');
    expect(field('E-mail')).toHaveValue('owner@acme.test');

    await user.click(screen.getByRole('button', { name: 'Cancel change' }));
    await waitFor(() => expect(screen.queryByText(/Waiting for you to confirm/)).not.toBeInTheDocument());
    expect(gw.to('DELETE', '/v1/profile/email')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Change e-mail address' })).toBeInTheDocument();
  });
});
