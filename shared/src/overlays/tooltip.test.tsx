import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Tooltip } from './tooltip';

describe('<Tooltip>', () => {
  it('shows on hover, describes its target, max width 350 px, hides on unhover', async () => {
    const user = userEvent.setup();
    render(
      <Tooltip content="Priority decides the order on the page">
        <button type="button">Priority</button>
      </Tooltip>,
    );
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    await user.hover(screen.getByRole('button', { name: 'Priority' }));
    const tip = await screen.findByRole('tooltip');
    expect(tip).toHaveTextContent('Priority decides the order on the page');
    expect(tip).toHaveStyle({ maxWidth: '350px' });
    await user.unhover(screen.getByRole('button', { name: 'Priority' }));
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });

  it('shows on keyboard focus and closes on Escape', async () => {
    const user = userEvent.setup();
    render(
      <Tooltip content="Copy the code">
        <button type="button">Copy</button>
      </Tooltip>,
    );
    await user.tab();
    expect(screen.getByRole('button', { name: 'Copy' })).toHaveFocus();
    const tip = await screen.findByRole('tooltip');
    expect(tip).toHaveTextContent('Copy the code');
    expect(screen.getByText('Copy').closest('[aria-describedby]')).toHaveAttribute('aria-describedby', tip.id);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });

  it('can make non-focusable content focusable', async () => {
    const user = userEvent.setup();
    render(
      <Tooltip content="Needs GROW UP" focusable>
        <span>?</span>
      </Tooltip>,
    );
    await user.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Needs GROW UP');
  });
});
