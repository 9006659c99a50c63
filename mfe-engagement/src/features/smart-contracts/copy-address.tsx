import { shortenAddress } from '@console/shared/format';
import { notify } from '@console/shared/ui';

const copy = (address: string) =>
  navigator.clipboard.writeText(address).then(
    () => notify.success('Address copied.'),
    () => notify.error('The address could not be copied.'),
  );

/** An address shortened (the whole one in its title), with a button that copies the whole address. */
export function CopyAddress({ address, label = 'contract address' }: { address: string; label?: string }) {
  return (
    <span className="inline-flex items-center gap-1">
      <span title={address} className="font-mono text-xs">
        {shortenAddress(address)}
      </span>
      <button
        type="button"
        aria-label={`Copy ${label} ${address}`}
        title={`Copy ${label}`}
        onClick={() => void copy(address)}
        className="rounded-sm p-0.5 text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
          <path d="M7 3h8a2 2 0 0 1 2 2v8h-2V5H7V3zm-2 4h8a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2zm0 2v6h8V9H5z" />
        </svg>
      </button>
    </span>
  );
}
