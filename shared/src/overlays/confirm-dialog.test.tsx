import { useState } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from './confirm-dialog';
import { DeleteDialog } from './delete-dialog';

function deferred() {
  let resolve: () => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('<ConfirmDialog>', () => {
  it('shows title, sanitised body and Confirm; no Cancel by default', async () => {
    render(
      <ConfirmDialog
        open
        onClose={() => {}}
        title="Delete widget"
        html="<p>Sure?<script>x()</script></p>"
        onConfirm={() => {}}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete widget' });
    expect(dialog).toHaveAccessibleDescription('Sure?');
    expect(dialog.querySelector('script')).toBeNull();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });

  it('shows Cancel with showCancel or cancelText, and Cancel calls onClose', async () => {
    const onClose = jest.fn();
    const user = userEvent.setup();
    const { rerender } = render(<ConfirmDialog open onClose={onClose} title="T" onConfirm={() => {}} showCancel />);
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    rerender(<ConfirmDialog open onClose={onClose} title="T" onConfirm={() => {}} cancelText="Keep it" />);
    expect(screen.getByRole('button', { name: 'Keep it' })).toBeInTheDocument();
    rerender(
      <ConfirmDialog open onClose={onClose} title="T" onConfirm={() => {}} cancelText="Keep it" showCancel={false} />,
    );
    expect(screen.queryByRole('button', { name: 'Keep it' })).not.toBeInTheDocument();
  });

  it('Confirm is busy (spinner, disabled, aria-busy) while the callback runs, then clears', async () => {
    const pending = deferred();
    const onConfirm = jest.fn(() => pending.promise);
    const onClose = jest.fn();
    const user = userEvent.setup();
    render(<ConfirmDialog open onClose={onClose} title="Delete" onConfirm={onConfirm} showCancel />);
    const confirm = await screen.findByRole('button', { name: 'Confirm' });

    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAttribute('aria-busy', 'true');
    expect(confirm.querySelector('svg.animate-spin')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();

    // A second press while busy does nothing; Escape cannot close a running confirmation.
    await user.click(confirm);
    await user.keyboard('{Escape}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();

    await act(async () => {
      pending.resolve();
      await pending.promise;
    });
    await waitFor(() => expect(confirm).toBeEnabled());
    expect(confirm).not.toHaveAttribute('aria-busy');
    expect(confirm.querySelector('svg.animate-spin')).toBeNull();
  });

  it('clears the busy state when the callback rejects and hands the error to onError', async () => {
    const pending = deferred();
    const onError = jest.fn();
    const user = userEvent.setup();
    render(
      <ConfirmDialog open onClose={() => {}} title="Delete" onConfirm={() => pending.promise} onError={onError} />,
    );
    const confirm = await screen.findByRole('button', { name: 'Confirm' });
    await user.click(confirm);
    expect(confirm).toHaveAttribute('aria-busy', 'true');
    const failure = new Error('Unable to delete widget');
    await act(async () => {
      pending.reject(failure);
      await pending.promise.catch(() => undefined);
    });
    await waitFor(() => expect(confirm).toBeEnabled());
    expect(confirm).not.toHaveAttribute('aria-busy');
    expect(onError).toHaveBeenCalledWith(failure);
  });

  it('clears the busy state when a synchronous callback throws', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    render(
      <ConfirmDialog
        open
        onClose={() => {}}
        title="Delete"
        onConfirm={() => {
          throw new Error('boom');
        }}
      />,
    );
    const confirm = await screen.findByRole('button', { name: 'Confirm' });
    await user.click(confirm);
    await waitFor(() => expect(confirm).toBeEnabled());
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });

  // Spec section 2: the confirm dialog's button is 'Confirm'; what is confirmed is in title and body.
  it('has no confirm text of its own: the button reads Confirm', async () => {
    // @ts-expect-error the button's text is not a prop
    render(<ConfirmDialog open onClose={() => {}} title="Delete it?" onConfirm={() => {}} confirmText="Delete" />);
    expect(await screen.findByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});

describe('<DeleteDialog>', () => {
  it('confirms with Confirm, keeping the wording in title and body; its error dialog too', async () => {
    const user = userEvent.setup({ delay: null });
    const remove = jest.fn(() => Promise.reject(new Error('boom')));
    function Harness() {
      const [item, setItem] = useState<string | null>('the Login Widget');
      return (
        <DeleteDialog
          item={item}
          onClose={() => setItem(null)}
          title="Delete this widget?"
          describe={(name) => <p>{name} stops working on your site.</p>}
          remove={remove}
          deletedText="Widget deleted."
          errorTitle="Unable to delete widget"
          failedText="The widget could not be deleted."
        />
      );
    }
    render(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Delete this widget?' });
    expect(dialog).toHaveTextContent('the Login Widget stops working on your site.');
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(remove).toHaveBeenCalledWith('the Login Widget');
    const error = await screen.findByRole('dialog', { name: 'Unable to delete widget' });
    expect(within(error).getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    expect(within(error).queryByRole('button', { name: 'OK' })).not.toBeInTheDocument();
  });
});
