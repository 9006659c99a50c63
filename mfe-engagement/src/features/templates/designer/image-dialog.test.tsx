import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NOT_IMAGE_CONTENT } from '@console/shared/ui';
import type { TemplateImage } from '@console/shared/contracts';
import { GATEWAY, fakeGateway, pagination, renderPage } from '../../../../test/audience-kit';
import { uploadImage } from '../api';
import { ImageDialog } from './image-dialog';
import { applyImageChoice, type ImageChoice } from './image-choice';

jest.setTimeout(20_000);

const image = (name: string): TemplateImage => ({
  url: `${GATEWAY}/files/images/${name}`,
  name,
  content_type: 'image/png',
  size: 68,
  uploaded_at: '2026-11-01T10:00:00.000Z',
});
const hero = image('hero.png');
const banner = image('banner.png');
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

/** The designer asks for an image from a button; the dialog hands its choice back. */
function Harness({ onChoose, current = null }: { onChoose: (c: ImageChoice) => void; current?: ImageChoice | null }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Change image
      </button>
      {open && (
        <ImageDialog open current={current} upload={uploadImage} onChoose={onChoose} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

function setup(current: ImageChoice | null = null) {
  const gateway = fakeGateway();
  const stored: TemplateImage[] = [banner, hero];
  gateway.on('GET /v1/files/template-images', () => ({ records: stored, pagination: pagination(stored.length, 24) }));
  gateway.on('POST /v1/files/s3-presigned-url', () => ({
    url: `${GATEWAY}/files/images/new.png?expires=1&signature=s`,
    fileKey: 'images/new.png',
    fileUrl: `${GATEWAY}/files/images/new.png`,
  }));
  gateway.on('PUT /files/images/new.png', () => ({ message: 'File stored.' }));
  const onChoose = jest.fn<void, [ImageChoice]>();
  const user = userEvent.setup();
  renderPage(<Harness onChoose={onChoose} current={current} />);
  const opener = screen.getByRole('button', { name: 'Change image' });
  return { gateway, onChoose, user, opener };
}

test('is a labelled dialog: focus moves in, Escape closes it and focus returns to what opened it', async () => {
  const { user, opener, onChoose } = setup();
  await user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Choose an image' });
  await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(opener).toHaveFocus();
  expect(onChoose).not.toHaveBeenCalled();
});

test("offers the tenant's uploads; a single click chooses one, and the next keystroke is its alt text", async () => {
  const { user, opener, onChoose } = setup();
  await user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Choose an image' });
  const heroButton = await within(dialog).findByRole('button', { name: 'hero.png' });
  expect(within(dialog).getByRole('button', { name: 'banner.png' })).toBeInTheDocument();
  await user.click(heroButton);
  expect(heroButton).toHaveAttribute('aria-pressed', 'true');
  const alt = within(dialog).getByRole('textbox', { name: 'Alt text' });
  await waitFor(() => expect(alt).toHaveFocus());
  await user.keyboard('Our community meetup{Enter}');
  expect(onChoose).toHaveBeenCalledWith({ src: hero.url, alt: 'Our community meetup' });
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
});

test('Enter or Space on an image chooses it too', async () => {
  const { user, opener } = setup();
  await user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Choose an image' });
  const bannerButton = await within(dialog).findByRole('button', { name: 'banner.png' });
  bannerButton.focus();
  await user.keyboard(' ');
  expect(bannerButton).toHaveAttribute('aria-pressed', 'true');
  await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Alt text' })).toHaveFocus());
  const heroButton = within(dialog).getByRole('button', { name: 'hero.png' });
  heroButton.focus();
  await user.keyboard('{Enter}');
  expect(heroButton).toHaveAttribute('aria-pressed', 'true');
  expect(bannerButton).toHaveAttribute('aria-pressed', 'false');
});

test('asks for alt text unless the image is marked decorative (then alt is empty on purpose)', async () => {
  const { user, opener, onChoose } = setup();
  await user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Choose an image' });
  await user.click(within(dialog).getByRole('button', { name: 'Use image' }));
  expect(await within(dialog).findByText('Choose an image.')).toBeInTheDocument();
  await user.click(await within(dialog).findByRole('button', { name: 'hero.png' }));
  await user.click(within(dialog).getByRole('button', { name: 'Use image' }));
  const alt = within(dialog).getByRole('textbox', { name: 'Alt text' });
  expect(alt).toHaveAccessibleDescription(expect.stringContaining('Describe the image, or mark it as decorative.'));
  expect(onChoose).not.toHaveBeenCalled();
  await user.click(within(dialog).getByRole('checkbox', { name: /Decorative image/ }));
  expect(alt).toBeDisabled();
  await user.click(within(dialog).getByRole('button', { name: 'Use image' }));
  expect(onChoose).toHaveBeenCalledWith({ src: hero.url, alt: '' });
});

test("opens on the element's image and alt text", async () => {
  const { user, opener, onChoose } = setup({ src: banner.url, alt: 'A banner' });
  await user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Choose an image' });
  expect(await within(dialog).findByRole('button', { name: 'banner.png' })).toHaveAttribute('aria-pressed', 'true');
  expect(within(dialog).getByRole('textbox', { name: 'Alt text' })).toHaveValue('A banner');
  await user.click(within(dialog).getByRole('button', { name: 'Use image' }));
  expect(onChoose).toHaveBeenCalledWith({ src: banner.url, alt: 'A banner' });
});

test('uploads an image for templates (its type sniffed first) and chooses it', async () => {
  const { user, opener, onChoose, gateway } = setup();
  await user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Choose an image' });
  const input = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
  // A text file named like a PNG is refused before anything is uploaded.
  await user.upload(input, new File(['not an image'], 'fake.png', { type: 'image/png' }));
  expect(await within(dialog).findByText(NOT_IMAGE_CONTENT)).toBeInTheDocument();
  expect(gateway.callsTo('POST /v1/files/s3-presigned-url')).toHaveLength(0);

  await user.upload(input, new File([PNG_BYTES], 'new.png', { type: 'image/png' }));
  const uploaded = await within(dialog).findByRole('button', { name: 'new.png' });
  expect(uploaded).toHaveAttribute('aria-pressed', 'true');
  expect(gateway.callsTo('POST /v1/files/s3-presigned-url')[0]?.json).toEqual({
    type: 'image/png',
    purpose: 'template_image',
    name: 'new.png',
  });
  expect(gateway.callsTo('PUT /files/images/new.png')).toHaveLength(1);
  await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Alt text' })).toHaveFocus());
  await user.keyboard('The new logo{Enter}');
  expect(onChoose).toHaveBeenCalledWith({ src: `${GATEWAY}/files/images/new.png`, alt: 'The new logo' });
});

test('the choice becomes the element’s src and alt attributes (what the MJML is written from)', () => {
  const attributes: Record<string, string> = { src: 'placeholder', alt: '' };
  const props: Record<string, string> = {};
  applyImageChoice(
    {
      set: (p) => Object.assign(props, p),
      addAttributes: (a) => Object.assign(attributes, a),
    },
    { src: hero.url, alt: 'Our community meetup' },
  );
  expect(props.src).toBe(hero.url);
  expect(attributes).toEqual({ src: hero.url, alt: 'Our community meetup' });
});
