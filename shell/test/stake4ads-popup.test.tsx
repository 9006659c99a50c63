import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  STAKING_POPUP_KEY,
  Stake4AdsPopup,
  dismissStakingPopup,
  shouldShowStakingPopup,
} from '../src/components/stake4ads-popup';

describe('Stake4Ads popup', () => {
  beforeEach(() => window.localStorage.clear());

  it("uses the storage key 'emt-staking'", () => {
    expect(STAKING_POPUP_KEY).toBe('emt-staking');
  });

  it('shouldShowStakingPopup is true until the key is closed', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (key: string) => data.get(key) ?? null,
      setItem: (key: string, value: string) => void data.set(key, value),
    };
    expect(shouldShowStakingPopup(storage)).toBe(true);
    dismissStakingPopup(storage);
    expect(data.get('emt-staking')).toBe('closed');
    expect(shouldShowStakingPopup(storage)).toBe(false);
    expect(shouldShowStakingPopup(null)).toBe(true);
    const broken = {
      getItem: (): string | null => {
        throw new Error('denied');
      },
    };
    expect(shouldShowStakingPopup(broken)).toBe(true);
  });

  it('shows the staking text and the Close and Learn More actions', async () => {
    render(<Stake4AdsPopup open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Stake $EMT to get your ads in front of your community');
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '/advertising/staking');
  });

  it("Close sets localStorage 'emt-staking' to 'closed' and calls onClose", async () => {
    const onClose = jest.fn();
    const user = userEvent.setup();
    render(<Stake4AdsPopup open onClose={onClose} />);
    expect(shouldShowStakingPopup(window.localStorage)).toBe(true);
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    expect(window.localStorage.getItem('emt-staking')).toBe('closed');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(shouldShowStakingPopup(window.localStorage)).toBe(false);
  });

  it('Escape also counts as dismissed', async () => {
    const onClose = jest.fn();
    const user = userEvent.setup();
    render(<Stake4AdsPopup open onClose={onClose} />);
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(window.localStorage.getItem('emt-staking')).toBe('closed');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('Learn More calls onLearnMore and remembers the dismissal', async () => {
    const onLearnMore = jest.fn();
    const user = userEvent.setup();
    render(<Stake4AdsPopup open onClose={() => {}} onLearnMore={onLearnMore} />);
    await user.click(await screen.findByRole('button', { name: 'Learn More' }));
    expect(onLearnMore).toHaveBeenCalledTimes(1);
    expect(window.localStorage.getItem('emt-staking')).toBe('closed');
  });

  it('writes to an injected storage', async () => {
    const setItem = jest.fn();
    const user = userEvent.setup();
    render(<Stake4AdsPopup open onClose={() => {}} storage={{ setItem }} />);
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    expect(setItem).toHaveBeenCalledWith('emt-staking', 'closed');
    expect(window.localStorage.getItem('emt-staking')).toBeNull();
  });
});
