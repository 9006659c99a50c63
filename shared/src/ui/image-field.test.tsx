import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import {
  ImageField,
  NOT_AN_IMAGE,
  NOT_IMAGE_CONTENT,
  hasImageContent,
  isAcceptedImage,
  readImageFile,
  type PickedImage,
} from './image-field';

const png = () => new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], 'logo.png', { type: 'image/png' });

function Harness({ initial = null, onSelect }: { initial?: string | null; onSelect?: (image: PickedImage) => void }) {
  const [src, setSrc] = useState<string | null>(initial);
  return (
    <ImageField
      label="Logo"
      src={src}
      accept={['image/png', 'image/jpeg']}
      maxBytes={10}
      onSelect={(image) => {
        onSelect?.(image);
        setSrc(image.dataUrl);
      }}
      onClear={() => setSrc(null)}
    />
  );
}

describe('<ImageField>', () => {
  it('reads a file as a base64 data URL with its mime type', async () => {
    await expect(readImageFile(png())).resolves.toBe('data:image/png;base64,iVBORw0KGgo=');
  });

  it('accepts images only, of the listed types', () => {
    expect(isAcceptedImage({ type: 'image/png' })).toBe(true);
    expect(isAcceptedImage({ type: 'text/plain' })).toBe(false);
    expect(isAcceptedImage({ type: 'image/gif' }, ['image/png'])).toBe(false);
  });

  // Spec section 5, images only: the first bytes decide, not the name or the type guessed from it.
  it('checks the bytes: a text file named .png is no image, nor a GIF typed as PNG', async () => {
    await expect(hasImageContent(png())).resolves.toBe(true);
    await expect(hasImageContent(new File(['hello'], 'logo.png', { type: 'image/png' }))).resolves.toBe(false);
    await expect(hasImageContent(new File(['GIF89a\u0001'], 'logo.png', { type: 'image/png' }))).resolves.toBe(false);
  });

  it('says a renamed non-image is not an image and previews nothing', async () => {
    const onSelect = jest.fn();
    const user = userEvent.setup();
    render(<Harness onSelect={onSelect} />);
    await user.upload(screen.getByLabelText('Logo'), new File(['notes'], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByLabelText('Logo')).toHaveAccessibleDescription(NOT_IMAGE_CONTENT));
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('previews a picked image and clears it', async () => {
    const onSelect = jest.fn();
    const user = userEvent.setup();
    render(<Harness onSelect={onSelect} />);
    const input = screen.getByLabelText('Logo');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    await user.upload(input, png());
    const preview = await screen.findByRole('img', { name: 'Logo preview' });
    expect(preview).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(onSelect.mock.calls[0][0].file.name).toBe('logo.png');
    await user.click(screen.getByRole('button', { name: 'Clear Logo' }));
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('refuses a file that is not an image, or too large, with a message under the field', async () => {
    const onSelect = jest.fn();
    const user = userEvent.setup({ applyAccept: false });
    render(<Harness onSelect={onSelect} />);
    await user.upload(screen.getByLabelText('Logo'), new File(['hi'], 'notes.txt', { type: 'text/plain' }));
    expect(screen.getByLabelText('Logo')).toHaveAccessibleDescription(NOT_AN_IMAGE);
    await user.upload(screen.getByLabelText('Logo'), new File([new Uint8Array(11)], 'big.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByLabelText('Logo')).toHaveAccessibleDescription(/up to/));
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('shows the first server error', () => {
    render(
      <ImageField
        label="Background"
        src="https://cdn.test/bg.png"
        error={['Bad image.', 'Other']}
        onSelect={jest.fn()}
        onClear={jest.fn()}
      />,
    );
    expect(screen.getByLabelText('Background')).toHaveAccessibleDescription('Bad image.');
    expect(screen.getByRole('img', { name: 'Background preview' })).toHaveAttribute('src', 'https://cdn.test/bg.png');
  });

  it('names the clear button with the given word, and blocks picking and clearing while disabled', () => {
    const onClear = jest.fn();
    const { rerender } = render(
      <ImageField label="Avatar" src="http://x.test/a.png" clearText="Remove" onSelect={jest.fn()} onClear={onClear} />,
    );
    expect(screen.getByRole('button', { name: 'Remove Avatar' })).toHaveTextContent('Remove');
    expect(screen.getByLabelText('Avatar')).toBeEnabled();
    rerender(
      <ImageField
        label="Avatar"
        src="http://x.test/a.png"
        clearText="Remove"
        disabled
        onSelect={jest.fn()}
        onClear={onClear}
      />,
    );
    expect(screen.getByRole('button', { name: 'Remove Avatar' })).toBeDisabled();
    expect(screen.getByLabelText('Avatar')).toBeDisabled();
  });
});
