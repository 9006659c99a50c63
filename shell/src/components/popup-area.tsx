import { useState } from 'react';
import { useLocation, useNavigate } from '@console/shared/router';
import { Stake4AdsPopup, shouldShowStakingPopup } from './stake4ads-popup';

/**
 * The layout's popup area. The spec does not say when the Stake4Ads popup shows; we show it on the
 * advertising pages (the feature it promotes) until the user dismisses it once ('emt-staking').
 */
export function PopupArea() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [dismissed, setDismissed] = useState(false);
  const open = !dismissed && pathname.startsWith('/advertising/emails') && shouldShowStakingPopup(window.localStorage);
  return (
    <div aria-live="polite">
      <Stake4AdsPopup
        open={open}
        onClose={() => setDismissed(true)}
        onLearnMore={() => {
          setDismissed(true);
          navigate('/advertising/staking');
        }}
      />
    </div>
  );
}
