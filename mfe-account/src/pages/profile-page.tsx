import '../styles.css';
import { useQuery } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import { PageHeader } from '@console/shared/layout';
import { Button, Spinner } from '@console/shared/ui';
import { PROFILE_KEY, fetchProfile } from '../features/profile/api';
import { ProfileForm } from '../features/profile/profile-form';

/** Your Profile (account/profile, any signed-in user): their names, avatar and time zone. */
export default function ProfilePage() {
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: fetchProfile });
  return (
    <section>
      <PageHeader title="Your Profile" />
      {profile.isPending ? (
        <Spinner label="Loading your profile" />
      ) : profile.isError ? (
        <div role="alert" className="max-w-xl rounded-lg border border-red-200 bg-red-50 p-5 text-sm text-red-800">
          <p className="font-medium">{messageOf(profile.error, 'Your profile could not be loaded.')}</p>
          <Button variant="secondary" className="mt-3" busy={profile.isFetching} onClick={() => void profile.refetch()}>
            Retry
          </Button>
        </div>
      ) : (
        <ProfileForm profile={profile.data} />
      )}
    </section>
  );
}
