import { act, fireEvent, render, screen } from '@testing-library/react';
import { CopyField, COPY_FAILED } from './copy-field';
import { notify } from './toasts';

const writeText = jest.fn<Promise<void>, [string]>();

beforeAll(() => {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
beforeEach(() => {
  jest.useFakeTimers();
  writeText.mockReset().mockResolvedValue(undefined);
  jest.spyOn(notify, 'success').mockReturnValue('t');
  jest.spyOn(notify, 'error').mockReturnValue('t');
});
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('<CopyField>', () => {
  it('copies, toasts, then focuses and selects the field 100 ms later', async () => {
    render(<CopyField label="Page URL" value="https://x.test/c/acme" copiedMessage="Link copied." />);
    const field = screen.getByLabelText('Page URL');
    expect(field).toHaveAttribute('readonly');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy Page URL' }));
    });
    expect(writeText).toHaveBeenCalledWith('https://x.test/c/acme');
    expect(notify.success).toHaveBeenCalledWith('Link copied.', undefined);
    act(() => jest.advanceTimersByTime(99));
    expect(field).not.toHaveFocus();
    act(() => jest.advanceTimersByTime(1));
    expect(field).toHaveFocus();
    if (!(field instanceof HTMLInputElement)) throw new Error('not an input');
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, 'https://x.test/c/acme'.length]);
  });

  it('says so when the clipboard refuses, and still selects the text', async () => {
    writeText.mockRejectedValue(new Error('denied'));
    render(<CopyField label="Page URL" value="abc" toastDuration={2000} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy Page URL' }));
    });
    expect(notify.error).toHaveBeenCalledWith(COPY_FAILED, { duration: 2000 });
    act(() => jest.advanceTimersByTime(100));
    expect(screen.getByLabelText('Page URL')).toHaveFocus();
  });
});
