import { CopyField } from '@console/shared/ui';

/** The public community page's address: copy it, or open it in a new tab. */
export function CommunityUrl({ url }: { url: string }) {
  return (
    <CopyField
      label="Community page URL"
      value={url}
      copiedMessage="Community page URL copied."
      actions={
        <a
          href={url}
          target="_blank"
          rel="noopener"
          className="rounded-sm text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          Open page
        </a>
      }
    />
  );
}
