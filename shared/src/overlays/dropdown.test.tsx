import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Dropdown, type DropdownItem } from './dropdown';
import { DROPDOWN_DELAY_MS, PROFILE_MENU_WIDTH } from '@console/shared/ui';

function setup(
  items: DropdownItem[] = [
    { label: 'Your Profile', href: '/account/profile' },
    { label: 'Sign Out', onSelect: jest.fn() },
  ],
  extra = {},
) {
  const user = userEvent.setup();
  render(
    <>
      <Dropdown label="Profile menu" trigger={<span>Ada</span>} items={items} {...extra} />
      <p>outside</p>
    </>,
  );
  return { user, trigger: screen.getByRole('button', { name: 'Profile menu' }) };
}

describe('<Dropdown>', () => {
  it('opens a menu on click with menuitems, and toggles closed on a second click', async () => {
    const { user, trigger } = setup();
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Your Profile', 'Sign Out']);
    expect(screen.getByRole('menuitem', { name: 'Your Profile' })).toHaveAttribute('href', '/account/profile');
    await user.click(trigger);
    await waitFor(() => expect(menu).not.toBeInTheDocument());
  });

  it('closes on Escape and returns focus to the trigger', async () => {
    const { user, trigger } = setup();
    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(menu).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Your Profile' })).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await waitFor(() => expect(trigger).toHaveFocus());
  });

  it('closes on an outside click', async () => {
    const { user, trigger } = setup();
    await user.click(trigger);
    await screen.findByRole('menu');
    await user.click(screen.getByText('outside'));
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('moves between items with the arrow keys (wrapping)', async () => {
    const { user, trigger } = setup([
      { label: 'One', onSelect: () => {} },
      { label: 'Two', onSelect: () => {} },
      { label: 'Three', onSelect: () => {} },
    ]);
    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    const [one, two, three] = screen.getAllByRole('menuitem');
    // Opened with the pointer: the menu itself has focus; the first ArrowDown reaches the first item.
    await waitFor(() => expect(menu).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(one).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(two).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(three).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(one).toHaveFocus());
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(three).toHaveFocus());
  });

  it('opens from the keyboard (Enter, ArrowDown) with focus on the first item; Escape returns to the trigger', async () => {
    const { user, trigger } = setup();
    await user.tab();
    expect(trigger).toHaveFocus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Your Profile' })).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(trigger).toHaveFocus());
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Your Profile' })).toHaveFocus());
  });

  it('runs onSelect and closes the menu', async () => {
    const onSelect = jest.fn();
    const { user, trigger } = setup([{ label: 'Sign Out', onSelect }]);
    await user.click(trigger);
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));
    expect(onSelect).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });

  it('renders link items through renderLink, with the menu props', async () => {
    const renderLink = jest.fn((href: string, children: React.ReactNode, props: Record<string, unknown>) => (
      <a data-router-link="yes" data-to={href} {...props}>
        {children}
      </a>
    ));
    const { user, trigger } = setup(
      [
        { label: 'Billing', href: '/account/billing' },
        { label: 'Docs', href: 'https://docs.test', external: true },
      ],
      { renderLink },
    );
    await user.click(trigger);
    const billing = await screen.findByRole('menuitem', { name: 'Billing' });
    expect(billing).toHaveAttribute('data-router-link', 'yes');
    expect(billing).toHaveAttribute('data-to', '/account/billing');
    const docs = screen.getByRole('menuitem', { name: 'Docs' });
    expect(docs).toHaveAttribute('target', '_blank');
    expect(docs).toHaveAttribute('rel', 'noopener noreferrer');
    expect(renderLink).toHaveBeenCalledWith(
      '/account/billing',
      expect.anything(),
      expect.objectContaining({ role: 'menuitem' }),
    );
    expect(renderLink).not.toHaveBeenCalledWith('https://docs.test', expect.anything(), expect.anything());
  });

  it('marks locked items and still runs their onSelect', async () => {
    const onSelect = jest.fn();
    const { user, trigger } = setup([{ label: 'Manage Users', locked: true, onSelect }]);
    await user.click(trigger);
    const item = await screen.findByRole('menuitem', { name: 'Manage Users' });
    expect(item).toHaveAttribute('data-locked', 'true');
    expect(item.querySelector('svg')).not.toBeNull();
    await user.click(item);
    expect(onSelect).toHaveBeenCalledTimes(1);
  });

  it('applies the width prop (profile menu 170 px)', async () => {
    const { user, trigger } = setup(undefined, { width: PROFILE_MENU_WIDTH });
    await user.click(trigger);
    expect(await screen.findByRole('menu')).toHaveStyle({ width: '170px' });
  });

  describe('hover (fake timers)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it(`opens after ${DROPDOWN_DELAY_MS} ms of hover, not before`, async () => {
      const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
      render(<Dropdown label="Menu" trigger="Menu" items={[{ label: 'Item', onSelect: () => {} }]} />);
      await user.hover(screen.getByRole('button', { name: 'Menu' }));
      act(() => {
        jest.advanceTimersByTime(DROPDOWN_DELAY_MS - 10);
      });
      expect(screen.queryByRole('menu')).not.toBeInTheDocument();
      act(() => {
        jest.advanceTimersByTime(20);
      });
      expect(screen.getByRole('menu')).toBeInTheDocument();
      // Opened by hover: focus stays on the page, not stolen by the first item.
      expect(screen.getByRole('menuitem', { name: 'Item' })).not.toHaveFocus();
    });
  });
});
