import { useId } from 'react';
import { Button } from '@console/shared/ui';
import { Dialog } from '@console/shared/overlays';

/** localStorage key of the Stake4Ads popup, and the value stored once the user dismissed it. */
export const STAKING_POPUP_KEY = 'emt-staking';
export const STAKING_POPUP_CLOSED = 'closed';
/** Where Learn More leads. */
export const STAKING_PAGE_PATH = '/advertising/staking';

/** True until the popup was dismissed once. A storage that throws (privacy modes) counts as not dismissed. */
export function shouldShowStakingPopup(storage: Pick<Storage, 'getItem'> | null | undefined): boolean {
  if (!storage) return true;
  try {
    return storage.getItem(STAKING_POPUP_KEY) !== STAKING_POPUP_CLOSED;
  } catch {
    return true;
  }
}

/** Remember that the popup was dismissed. */
export function dismissStakingPopup(storage: Pick<Storage, 'setItem'> | null | undefined): void {
  try {
    storage?.setItem(STAKING_POPUP_KEY, STAKING_POPUP_CLOSED);
  } catch {
    // Storage unavailable: the popup may show again next time, nothing else breaks.
  }
}

function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export interface Stake4AdsPopupProps {
  open: boolean;
  /** Called after Close, Escape or backdrop (the storage key is already set). */
  onClose: () => void;
  /** Learn More handler (e.g. router navigation). Without it Learn More is a link to `learnMoreHref`. */
  onLearnMore?: () => void;
  learnMoreHref?: string;
  /** Where the dismissal is remembered (default window.localStorage). */
  storage?: Pick<Storage, 'setItem'> | null;
}

/** The Stake4Ads popup: staking $EMT puts your ads in front of communities. Dismissal sets 'emt-staking' to 'closed'. */
export function Stake4AdsPopup({
  open,
  onClose,
  onLearnMore,
  learnMoreHref = STAKING_PAGE_PATH,
  storage,
}: Stake4AdsPopupProps) {
  const bodyId = useId();
  const remember = () => dismissStakingPopup(storage === undefined ? browserStorage() : storage);
  const close = () => {
    remember();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Stake $EMT, get your ads seen"
      descriptionId={bodyId}
      size="sm"
      testId="stake4ads-popup"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
          {onLearnMore ? (
            <Button
              onClick={() => {
                remember();
                onLearnMore();
              }}
            >
              Learn More
            </Button>
          ) : (
            <a
              href={learnMoreHref}
              onClick={close}
              className="inline-flex items-center justify-center rounded-control bg-brand-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              Learn More
            </a>
          )}
        </>
      }
    >
      <p id={bodyId}>
        Stake $EMT to get your ads in front of your community. Learn how staking works and what it unlocks for your
        advertising.
      </p>
    </Dialog>
  );
}
