import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Dialog, type DialogProps } from './dialog';
import { DIALOG_ENTER_MS, DIALOG_LEAVE_MS } from '@console/shared/ui';

function Harness(props: Partial<DialogProps>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <button type="button">Elsewhere</button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Delete widget"
        footer={
          <>
            <button type="button">First</button>
            <button type="button">Second</button>
          </>
        }
        {...props}
      >
        <p>Are you sure?</p>
      </Dialog>
    </>
  );
}

async function openDialog() {
  const user = userEvent.setup();
  render(<Harness />);
  const opener = screen.getByRole('button', { name: 'Open' });
  await user.click(opener);
  const dialog = await screen.findByRole('dialog');
  return { user, opener, dialog };
}

describe('<Dialog>', () => {
  it('is an accessible modal dialog named by its title', async () => {
    const { dialog } = await openDialog();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleName('Delete widget');
    expect(screen.getByRole('heading', { name: 'Delete widget' })).toBeInTheDocument();
  });

  it('moves focus into the dialog when it opens', async () => {
    const { dialog } = await openDialog();
    await waitFor(() =>
      expect(dialog).toContainElement(document.activeElement instanceof HTMLElement ? document.activeElement : null),
    );
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
  });

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    const { user, dialog } = await openDialog();
    const first = screen.getByRole('button', { name: 'First' });
    const second = screen.getByRole('button', { name: 'Second' });
    await waitFor(() => expect(first).toHaveFocus());
    await user.tab();
    expect(second).toHaveFocus();
    // Past the last element a focus guard sends focus back to the first one (on the next frame).
    await user.tab();
    await waitFor(() => expect(first).toHaveFocus());
    await user.tab({ shift: true });
    await waitFor(() => expect(second).toHaveFocus());
    for (let i = 0; i < 5; i += 1) {
      await user.tab();
      await waitFor(() => expect([first, second]).toContain(document.activeElement));
    }
    expect(dialog).toContainElement(second);
  });

  it('closes on Escape and returns focus to the opener', async () => {
    const { user, opener } = await openDialog();
    await waitFor(() => expect(screen.getByRole('button', { name: 'First' })).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('closes on a backdrop click', async () => {
    const { user } = await openDialog();
    await user.click(screen.getByTestId('dialog-backdrop'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('stays open on a click inside the panel', async () => {
    const { user } = await openDialog();
    await user.click(screen.getByText('Are you sure?'));
    await act(() => new Promise((resolve) => setTimeout(resolve, DIALOG_LEAVE_MS + 50)));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('ignores backdrop clicks with dismissOnBackdrop={false} but still closes on Escape', async () => {
    const user = userEvent.setup();
    render(<Harness dismissOnBackdrop={false} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByRole('dialog');
    await user.click(screen.getByTestId('dialog-backdrop'));
    await act(() => new Promise((resolve) => setTimeout(resolve, DIALOG_LEAVE_MS + 50)));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('ignores Escape and backdrop when not dismissible', async () => {
    const onClose = jest.fn();
    const user = userEvent.setup();
    render(
      <Dialog open onClose={onClose} title="Busy" dismissible={false} footer={<button type="button">Ok</button>} />,
    );
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId('dialog-backdrop'));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('calls onClose from the optional close icon', async () => {
    const onClose = jest.fn();
    const user = userEvent.setup();
    render(<Dialog open onClose={onClose} title="Plans" showCloseButton />);
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  describe('transitions (fake timers)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it(`enters over ${DIALOG_ENTER_MS} ms and stays mounted for the ${DIALOG_LEAVE_MS} ms leave`, () => {
      const { rerender } = render(<Dialog open onClose={() => {}} title="T" />);
      act(() => {
        jest.advanceTimersByTime(16);
      });
      expect(screen.getByRole('dialog').style.transitionDuration).toBe(`${DIALOG_ENTER_MS}ms`);

      rerender(<Dialog open={false} onClose={() => {}} title="T" />);
      act(() => {
        jest.advanceTimersByTime(16);
      });
      expect(screen.getByRole('dialog').style.transitionDuration).toBe(`${DIALOG_LEAVE_MS}ms`);
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

describe('store-driven dialogs keep their content while closing', () => {
  it('ConfirmDialog shows the last open texts during the leave transition', async () => {
    const { ConfirmDialog } = await import('./confirm-dialog');
    const { rerender } = render(
      <ConfirmDialog
        open
        title="Delete widget"
        html="<p>Sure?</p>"
        cancelText="Keep"
        onConfirm={() => {}}
        onClose={() => {}}
      />,
    );
    expect(await screen.findByRole('dialog', { name: 'Delete widget' })).toBeInTheDocument();
    rerender(<ConfirmDialog open={false} title="" html="" onConfirm={() => {}} onClose={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Delete widget' })).toHaveTextContent('Sure?');
    expect(screen.getByRole('button', { name: 'Keep' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
