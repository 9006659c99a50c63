import { Button } from '@console/shared/ui';
import { formatDateTime, formatRelative } from '@console/shared/format';
import type { TemplateVersion } from '@console/shared/contracts';

/**
 * The kept versions, newest first: when, by whom, the subject then. Every one but the current can be
 * restored (restoring saves it as a new version, so nothing is lost).
 */
export function VersionList({
  versions,
  current,
  restoring,
  onRestore,
}: {
  versions: readonly TemplateVersion[];
  /** The version the designer shows now. */
  current: number;
  /** The version being restored, if any (its button is busy, the others wait). */
  restoring: number | null;
  onRestore: (version: number) => void;
}) {
  if (versions.length === 0) return <p className="text-sm text-slate-600">No versions yet.</p>;
  return (
    <ol aria-label="Versions" className="divide-y divide-slate-200">
      {versions.map((v) => (
        <li key={v.version} className="flex items-start justify-between gap-3 py-3">
          <div className="min-w-0 text-sm">
            <p className="font-medium text-slate-900">
              Version {v.version}
              {v.version === current && <span className="ml-2 text-xs font-normal text-slate-600">(current)</span>}
            </p>
            <p className="text-slate-600">
              <time dateTime={v.created_at} title={formatDateTime(v.created_at)}>
                {formatRelative(v.created_at)}
              </time>
              {v.created_by ? ` by ${v.created_by.name}` : ''}
            </p>
            {v.subject && <p className="truncate text-slate-600">Subject: {v.subject}</p>}
          </div>
          {v.version !== current && (
            <Button
              variant="secondary"
              size="sm"
              aria-label={`Restore version ${v.version}`}
              busy={restoring === v.version}
              disabled={restoring !== null && restoring !== v.version}
              onClick={() => onRestore(v.version)}
            >
              Restore
            </Button>
          )}
        </li>
      ))}
    </ol>
  );
}
