import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UpgradeDialog } from '../src/components/upgrade-dialog';

describe('<UpgradeDialog>', () => {
  it("shows 'Unlock more features!', the default body and both buttons", async () => {
    render(<UpgradeDialog open onClose={() => {}} onUpgrade={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Unlock more features!' });
    expect(dialog).toHaveAccessibleDescription(
      'This feature is not included in your current plan. Upgrade your plan to unlock it.',
    );
    const buttons = within(dialog)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(buttons).toEqual(['Close Window', 'Upgrade Your Plan']);
  });

  it('calls onUpgrade and onClose from their buttons', async () => {
    const onUpgrade = jest.fn();
    const onClose = jest.fn();
    const user = userEvent.setup();
    render(<UpgradeDialog open onClose={onClose} onUpgrade={onUpgrade} />);
    await user.click(await screen.findByRole('button', { name: 'Upgrade Your Plan' }));
    expect(onUpgrade).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Close Window' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps Upgrade Your Plan busy while onUpgrade runs', async () => {
    let finish: () => void = () => {};
    const user = userEvent.setup();
    render(
      <UpgradeDialog open onClose={() => {}} onUpgrade={() => new Promise<void>((resolve) => (finish = resolve))} />,
    );
    const button = await screen.findByRole('button', { name: 'Upgrade Your Plan' });
    await user.click(button);
    expect(button).toHaveAttribute('aria-busy', 'true');
    await act(async () => finish());
    await waitFor(() => expect(button).not.toHaveAttribute('aria-busy'));
  });

  it('renders a custom body sanitised', async () => {
    render(
      <UpgradeDialog
        open
        onClose={() => {}}
        onUpgrade={() => {}}
        html={'<p>Automations need <b>START UP</b>.</p><img src=x onerror="alert(1)">'}
      />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('START UP').tagName).toBe('B');
    expect(dialog.querySelector('img')).toBeNull();
  });

  it('closes on Escape', async () => {
    const onClose = jest.fn();
    const user = userEvent.setup();
    render(<UpgradeDialog open onClose={onClose} onUpgrade={() => {}} />);
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
