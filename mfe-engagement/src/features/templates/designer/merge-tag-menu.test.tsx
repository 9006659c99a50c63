import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MergeTagCatalogue } from '@console/shared/contracts';
import { MergeTagMenu } from './merge-tag-menu';

const catalogue: MergeTagCatalogue = {
  groups: [
    {
      label: 'Contact',
      tags: [
        { tag: 'contact.first_name', label: 'First name', example: 'Ada' },
        { tag: 'contact.token_balance', label: 'Token balance', example: '1200' },
      ],
    },
    { label: 'Community', tags: [{ tag: 'community.name', label: 'Name', example: 'Acme DAO' }] },
    { label: 'Links', tags: [{ tag: 'unsubscribe_url', label: 'Unsubscribe link', example: 'https://…' }] },
  ],
};

function setup(props: Partial<Parameters<typeof MergeTagMenu>[0]> = {}) {
  const onPick = jest.fn();
  const user = userEvent.setup();
  render(<MergeTagMenu catalogue={catalogue} label="Insert a merge tag into the subject" onPick={onPick} {...props} />);
  return { onPick, user, trigger: screen.getByRole('button', { name: 'Insert a merge tag into the subject' }) };
}

test('lists every tag of every group and inserts the chosen one as Liquid', async () => {
  const { onPick, user, trigger } = setup();
  await user.click(trigger);
  const menu = await screen.findByRole('menu');
  const items = within(menu).getAllByRole('menuitem');
  expect(items.map((i) => i.textContent)).toEqual([
    'Contact: First name{{ contact.first_name }}',
    'Contact: Token balance{{ contact.token_balance }}',
    'Community: Name{{ community.name }}',
    'Links: Unsubscribe link{{ unsubscribe_url }}',
  ]);
  await user.click(within(menu).getByRole('menuitem', { name: /First name/ }));
  expect(onPick).toHaveBeenCalledWith('{{ contact.first_name | default: "" }}');
  expect(screen.queryByRole('menu')).toBeNull();
});

test('works from the keyboard: arrows move, Enter picks, Escape closes and gives focus back', async () => {
  const { onPick, user, trigger } = setup();
  trigger.focus();
  await user.keyboard('{Enter}');
  await screen.findByRole('menu');
  // Opened from the keyboard, the first item has focus (floating-ui moves it after the menu is shown).
  await waitFor(() => expect(screen.getByRole('menuitem', { name: /First name/ })).toHaveFocus());
  await user.keyboard('{ArrowDown}{ArrowDown}');
  expect(screen.getByRole('menuitem', { name: /Community: Name/ })).toHaveFocus();
  await user.keyboard('{Enter}');
  expect(onPick).toHaveBeenCalledWith('{{ community.name }}');

  await user.keyboard('{Enter}');
  await screen.findByRole('menu');
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('menu')).toBeNull();
  expect(trigger).toHaveFocus();
  expect(onPick).toHaveBeenCalledTimes(1);
});

test('says so while the tags load or when they could not be loaded', async () => {
  const { user, trigger, onPick } = setup({ catalogue: undefined });
  await user.click(trigger);
  const item = within(await screen.findByRole('menu')).getByRole('menuitem');
  expect(item).toHaveTextContent('Loading merge tags…');
  expect(item).toBeDisabled();
  await user.click(item);
  expect(onPick).not.toHaveBeenCalled();
});

test('a catalogue that failed shows why', async () => {
  const { user, trigger } = setup({ catalogue: null });
  await user.click(trigger);
  expect(within(await screen.findByRole('menu')).getByRole('menuitem')).toHaveTextContent(
    'Merge tags could not be loaded.',
  );
});
