import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { SlideOver, type SlideOverProps } from './slide-over';
import { DIALOG_ENTER_MS, DIALOG_LEAVE_MS } from '@console/shared/ui';

function Harness(props: Partial<SlideOverProps>) {
  const [open, setOpen] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Add contact
      </button>
      <SlideOver
        open={open}
        onClose={() => setOpen(false)}
        title="New contact"
        description="Wallet or e-mail is required."
        initialFocus={nameRef}
        footer={<button type="button">Save</button>}
        {...props}
      >
        <label>
          E-mail <input ref={nameRef} />
        </label>
      </SlideOver>
    </>
  );
}

async function openPanel(props: Partial<SlideOverProps> = {}) {
  const user = userEvent.setup();
  render(<Harness {...props} />);
  const opener = screen.getByRole('button', { name: 'Add contact' });
  await user.click(opener);
  const panel = await screen.findByRole('dialog');
  return { user, opener, panel };
}

describe('<SlideOver>', () => {
  it('is a modal dialog named by its title and described by its description', async () => {
    const { panel } = await openPanel();
    expect(panel).toHaveAttribute('aria-modal', 'true');
    expect(panel).toHaveAccessibleName('New contact');
    expect(panel).toHaveAccessibleDescription('Wallet or e-mail is required.');
    expect(screen.getByRole('heading', { name: 'New contact' })).toBeInTheDocument();
  });

  it('focuses the initial field, and Tab stays inside', async () => {
    const { user, panel } = await openPanel();
    const field = screen.getByLabelText('E-mail');
    await waitFor(() => expect(field).toHaveFocus());
    for (let i = 0; i < 4; i += 1) {
      await user.tab();
      await waitFor(() =>
        expect(panel).toContainElement(document.activeElement instanceof HTMLElement ? document.activeElement : null),
      );
    }
  });

  it('closes on Escape and returns focus to the opener', async () => {
    const { user, opener } = await openPanel();
    await waitFor(() => expect(screen.getByLabelText('E-mail')).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('closes on a backdrop click and from the close icon', async () => {
    const { user } = await openPanel();
    await user.click(screen.getByTestId('slide-over-backdrop'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Add contact' }));
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('stays open on a click inside the panel', async () => {
    const { user } = await openPanel();
    await user.click(screen.getByRole('heading', { name: 'New contact' }));
    await act(() => new Promise((resolve) => setTimeout(resolve, DIALOG_LEAVE_MS + 50)));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('ignores Escape, backdrop and the close icon while not dismissible', async () => {
    const onClose = jest.fn();
    const user = userEvent.setup();
    render(<SlideOver open onClose={onClose} title="Saving" dismissible={false} />);
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('slide-over-backdrop'));
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();
    expect(onClose).not.toHaveBeenCalled();
  });

  describe('transitions (fake timers)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it(`slides in over ${DIALOG_ENTER_MS} ms and stays mounted for the ${DIALOG_LEAVE_MS} ms leave`, () => {
      const { rerender } = render(<SlideOver open onClose={() => {}} title="T" />);
      act(() => {
        jest.advanceTimersByTime(16);
      });
      expect(screen.getByRole('dialog').style.transitionDuration).toBe(`${DIALOG_ENTER_MS}ms`);
      rerender(<SlideOver open={false} onClose={() => {}} title="T" />);
      act(() => {
        jest.advanceTimersByTime(DIALOG_LEAVE_MS - 50);
      });
      expect(screen.getByRole('dialog')).toBeInTheDocument();
      act(() => {
        jest.advanceTimersByTime(100);
      });
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });
});
