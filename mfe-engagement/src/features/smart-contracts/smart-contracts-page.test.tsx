import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ONCHAIN_MESSAGES } from '@console/shared/contracts';
import { consoleStore } from '@console/shared/session';
import SmartContractsPage from '../../pages/smart-contracts-page';
import SmartContractPage from '../../pages/smart-contract-page';
import { fakeGateway, json, pageOf, renderPage } from '../../../test/audience-kit';
import { APPROVAL, CONTRACT, ERC20_ABI, EVENT, TRANSFER } from './test-data';

// Page tests drive whole screens in jsdom: slow on a busy two-core machine.
jest.setTimeout(20_000);

const CHAINS = { records: [{ id: 31337, name: 'Local chain', explorer_url: null, head_block: '121' }] };

function setup({ used = 0, limit = 2 } = {}) {
  const gateway = fakeGateway();
  gateway.on('GET /v1/onchain/chains', () => CHAINS);
  gateway.on('GET /v1/onchain/quota', () => ({ used, limit }));
  gateway.on('GET /v1/onchain/contracts', () => pageOf([CONTRACT]));
  gateway.on('POST /v1/onchain/contracts', ({ json: body }) =>
    json({ ...CONTRACT, ...(body as object), _id: 'w2' }, 201),
  );
  gateway.on('GET /v1/onchain/contracts/:id', () => CONTRACT);
  gateway.on('PATCH /v1/onchain/contracts/:id', ({ json: body }) => ({ ...CONTRACT, ...(body as object) }));
  gateway.on('DELETE /v1/onchain/contracts/:id', () => new Response(null, { status: 204 }));
  gateway.on('GET /v1/onchain/contracts/:id/events', () => pageOf([EVENT]));
  return gateway;
}

beforeEach(() => consoleStore.getState().closeUpgrade());

async function openWatchDialog() {
  renderPage(<SmartContractsPage />, { path: '/engagement/smart-contracts' });
  await screen.findByText('Acme token');
  const button = screen.getByRole('button', { name: 'Watch contract' });
  await waitFor(() => expect(button).toBeEnabled());
  await userEvent.click(button);
  return screen.findByRole('dialog', { name: 'Watch a contract' });
}

const abiField = (dialog: HTMLElement) => within(dialog).getByRole('textbox', { name: 'ABI' });

async function pasteAbi(dialog: HTMLElement, text: string) {
  await userEvent.click(abiField(dialog));
  await userEvent.paste(text);
}

describe('the ABI picker', () => {
  test('invalid JSON shows the message under the field as it is typed, and no events', async () => {
    setup();
    const dialog = await openWatchDialog();
    await pasteAbi(dialog, '[{"type": "event",');
    const field = abiField(dialog);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining(ONCHAIN_MESSAGES.abi));
    expect(within(dialog).queryByRole('group', { name: 'Events to watch' })).toBeNull();
  });

  test('an ABI without events says so', async () => {
    setup();
    const dialog = await openWatchDialog();
    await pasteAbi(dialog, JSON.stringify([{ type: 'function', name: 'f', inputs: [], outputs: [] }]));
    expect(abiField(dialog)).toHaveAccessibleDescription(expect.stringContaining(ONCHAIN_MESSAGES.abiNoEvents));
    expect(within(dialog).queryByRole('group', { name: 'Events to watch' })).toBeNull();
  });

  test("offers the ABI's events with their arguments, Transfer picked; the picks are what is sent", async () => {
    const gateway = setup();
    const dialog = await openWatchDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Contract address' }), CONTRACT.address);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Acme token');
    await pasteAbi(dialog, ERC20_ABI);
    const picker = within(dialog).getByRole('group', { name: 'Events to watch' });
    const transfer = within(picker).getByRole('checkbox', { name: TRANSFER });
    const approval = within(picker).getByRole('checkbox', { name: APPROVAL });
    expect(transfer).toBeChecked();
    expect(approval).not.toBeChecked();
    expect(approval).toHaveAccessibleDescription(
      'owner (address, indexed), spender (address, indexed), value (uint256)',
    );
    // Functions are not events.
    expect(within(picker).getAllByRole('checkbox')).toHaveLength(2);

    await userEvent.click(approval);
    await userEvent.click(transfer);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Watch contract' }));
    await waitFor(() => expect(gateway.callsTo('POST /v1/onchain/contracts')).toHaveLength(1));
    expect(gateway.callsTo('POST /v1/onchain/contracts')[0]?.json).toEqual({
      chain_id: 31337,
      address: CONTRACT.address,
      name: 'Acme token',
      abi: ERC20_ABI,
      events: [APPROVAL],
      confirmations: 1,
    });
  });

  test('no event picked: the form says so and sends nothing', async () => {
    const gateway = setup();
    const dialog = await openWatchDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Contract address' }), CONTRACT.address);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Acme token');
    await pasteAbi(dialog, ERC20_ABI);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: TRANSFER }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Watch contract' }));
    expect(within(dialog).getByRole('group', { name: 'Events to watch' })).toHaveAccessibleDescription(
      ONCHAIN_MESSAGES.events,
    );
    expect(gateway.callsTo('POST /v1/onchain/contracts')).toHaveLength(0);
  });

  test('the keystrokes after pasting keep the picks, through an ABI made invalid and valid again', async () => {
    setup();
    const dialog = await openWatchDialog();
    await pasteAbi(dialog, ERC20_ABI);
    await userEvent.click(within(dialog).getByRole('checkbox', { name: APPROVAL }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: TRANSFER }));

    // A space after the pasted text: still the same ABI, the picks stay.
    await userEvent.type(abiField(dialog), ' ');
    expect(within(dialog).getByRole('checkbox', { name: APPROVAL })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: TRANSFER })).not.toBeChecked();

    // A stray character: the message, no picker; deleting it brings back the picks as they were.
    await userEvent.type(abiField(dialog), 'x');
    expect(abiField(dialog)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByRole('group', { name: 'Events to watch' })).toBeNull();
    await userEvent.type(abiField(dialog), '{Backspace}');
    expect(abiField(dialog)).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).getByRole('checkbox', { name: APPROVAL })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: TRANSFER })).not.toBeChecked();
  });
});

describe('the plan limit', () => {
  test('at the limit, Watch contract opens the upgrade flow instead of the form', async () => {
    setup({ used: 2, limit: 2 });
    renderPage(<SmartContractsPage />, { path: '/engagement/smart-contracts' });
    await screen.findByText('Watching 2 of the 2 contracts your plan includes.');
    await userEvent.click(screen.getByRole('button', { name: 'Watch contract' }));
    expect(consoleStore.getState().upgrade).toEqual({ open: true, feature: 'monitor_smart_contracts' });
    expect(screen.queryByRole('dialog', { name: 'Watch a contract' })).toBeNull();
  });

  test('under the limit the form opens; a 403 from the gateway offers the upgrade', async () => {
    const gateway = setup({ used: 1, limit: 2 });
    gateway.on('POST /v1/onchain/contracts', () =>
      json({ message: 'Your plan watches at most 2 smart contracts.' }, 403),
    );
    const dialog = await openWatchDialog();
    expect(consoleStore.getState().upgrade.open).toBe(false);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Contract address' }), CONTRACT.address);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Acme token');
    await pasteAbi(dialog, ERC20_ABI);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Watch contract' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Your plan watches at most 2 smart contracts.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Upgrade your plan' }));
    expect(consoleStore.getState().upgrade).toEqual({ open: true, feature: 'monitor_smart_contracts' });
  });
});

describe('a watched contract', () => {
  const open = () =>
    renderPage(<SmartContractPage />, {
      path: '/engagement/smart-contracts/w1',
      route: '/engagement/smart-contracts/:id',
    });

  test('shows its state, progress and feed: the transaction linked to the explorer, the contact to its page', async () => {
    setup();
    open();
    await screen.findByRole('heading', { name: 'Acme token', level: 1 });
    expect(screen.getByTestId('watch-state')).toHaveTextContent('Live');
    expect(screen.getByTestId('block-progress')).toHaveTextContent('120 of 121 (1 behind)');
    const feed = await screen.findByRole('table', { name: 'Events' });
    const row = within(feed).getByText('Transfer').closest('tr');
    expect(row).not.toBeNull();
    const cells = within(row as HTMLElement);
    // The amount reads in whole tokens; the smallest-unit integer stays in its title.
    expect(cells.getByText('5 ACME')).toHaveAttribute('title', '5000000000000000000 (smallest unit)');
    expect(cells.getByRole('link', { name: /Transaction 0x8f1c/ })).toHaveAttribute('href', EVENT.tx_url);
    expect(cells.getByRole('link', { name: 'ann@example.com' })).toHaveAttribute(
      'href',
      '/engagement/contacts?contact=c1',
    );
  });

  test('changes the watched events, pauses, and stops watching after a confirmation', async () => {
    const gateway = setup();
    open();
    const form = await screen.findByRole('form', { name: 'Watched events' });
    await userEvent.click(within(form).getByRole('checkbox', { name: APPROVAL }));
    await userEvent.click(within(form).getByRole('button', { name: 'Save events' }));
    await waitFor(() => expect(gateway.callsTo('PATCH /v1/onchain/contracts/w1')).toHaveLength(1));
    expect(gateway.callsTo('PATCH /v1/onchain/contracts/w1')[0]?.json).toEqual({ events: [TRANSFER, APPROVAL] });

    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(gateway.callsTo('PATCH /v1/onchain/contracts/w1')).toHaveLength(2));
    expect(gateway.callsTo('PATCH /v1/onchain/contracts/w1')[1]?.json).toEqual({ paused: true });

    const stop = screen.getByRole('button', { name: 'Stop watching' });
    await userEvent.click(stop);
    const confirm = await screen.findByRole('dialog', { name: 'Stop watching "Acme token"?' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(stop).toHaveFocus();
    expect(gateway.callsTo('DELETE /v1/onchain/contracts/w1')).toHaveLength(0);
    expect(confirm).not.toBeInTheDocument();

    await userEvent.click(stop);
    const again = await screen.findByRole('dialog', { name: 'Stop watching "Acme token"?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/engagement/smart-contracts'));
    expect(gateway.callsTo('DELETE /v1/onchain/contracts/w1')).toHaveLength(1);
  });
});
