import type { AudienceCount } from '@console/shared/contracts';
import { Spinner } from '@console/shared/ui';
import { formatCount } from '@console/shared/format';
import { audienceLines, receiveText } from '../campaign-rules';

/**
 * Who the send would reach (the gateway's count, the query the send uses): per channel, then why the
 * others are left out. Announced politely as it changes.
 */
export function AudienceCountPanel({
  count,
  loading,
  error,
}: {
  count: AudienceCount | undefined;
  loading: boolean;
  error: string | null;
}) {
  const lines = count ? audienceLines(count) : null;
  return (
    <section
      aria-labelledby="audience-count-title"
      className="rounded-panel border border-slate-200 bg-white p-4"
      data-testid="audience-count"
    >
      <h2 id="audience-count-title" className="text-sm font-semibold text-slate-900">
        Who will receive it
      </h2>
      <div className="mt-2 space-y-3 text-sm">
        {loading && !count && (
          <p className="flex items-center gap-2 text-slate-600">
            <Spinner className="h-4 w-4" decorative /> Counting…
          </p>
        )}
        {error && <p className="text-red-700">{error}</p>}
        {count && lines && (
          <>
            <p className="text-2xl font-semibold text-slate-900">
              <span data-testid="reachable">{formatCount(count.reachable)}</span>
              <span className="ml-2 text-sm font-normal text-slate-600">
                of {formatCount(count.matched)} in the audience
              </span>
            </p>
            {/* Said when the count changes; the figures below are read on demand. */}
            <p role="status" className="sr-only">
              {receiveText(count.reachable)}
            </p>
            <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
              {lines.reachable.map((line) => (
                <div key={line.key} className="contents">
                  <dt className="text-slate-700">{line.label}</dt>
                  <dd className="text-right text-slate-900 tabular-nums">{formatCount(line.value)}</dd>
                </div>
              ))}
            </dl>
            {lines.leftOut.length > 0 && (
              <div>
                <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Left out</h3>
                <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
                  {lines.leftOut.map((line) => (
                    <div key={line.key} className="contents">
                      <dt className="text-slate-700">{line.label}</dt>
                      <dd className="text-right text-slate-900 tabular-nums">{formatCount(line.value)}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            )}
            {!count.wallet_mail_domain && count.no_address > 0 && (
              <p className="text-xs text-slate-600">
                Contacts with only a wallet have no e-mail address, so they are left out.
              </p>
            )}
            {loading && <p className="text-xs text-slate-600">Updating…</p>}
          </>
        )}
      </div>
    </section>
  );
}
