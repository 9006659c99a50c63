import { Link } from '@console/shared/router';
import { useConsole } from '@console/shared/session';
import { TextField } from '@console/shared/ui';
import { COMMUNITY_LIMITS } from '@console/shared/contracts';

export const GENERAL_SETTINGS_PATH = '/account/general-settings';

/** The community name: read-only here; changed in General Settings (linked for company_settings holders). */
export function CommunityName({ id, value, error }: { id: string; value: string; error?: string }) {
  const canChange = useConsole((s) => s.user?.permissions.includes('company_settings') ?? false);
  return (
    <TextField
      id={id}
      label="Community name"
      readOnly
      maxLength={COMMUNITY_LIMITS.title}
      value={value}
      error={error}
      className="bg-slate-50"
      hint={
        canChange ? (
          <>
            The name of your company.{' '}
            <Link to={GENERAL_SETTINGS_PATH} className="font-medium text-brand-700 hover:underline">
              Change it in General Settings
            </Link>
          </>
        ) : (
          'The name of your company.'
        )
      }
    />
  );
}
