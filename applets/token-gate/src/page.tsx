import './styles.css';
import { PageHeader } from '@console/shared/layout';
import { useConsole } from '@console/shared/session';
import { Spinner } from '@console/shared/ui';
import { useCommunity, useContactCount } from './api';

/**
 * Token Gate, the sample applet: the content a community keeps for holders of its token, with the
 * figures it is gated on (the tenant's contact count) and the community page it is reached from. The
 * signed-in user comes from the console's session store (the shared singleton), never from a login
 * of its own.
 */
export default function TokenGatePage() {
  const user = useConsole((s) => s.user);
  const contacts = useContactCount();
  const community = useCommunity();

  return (
    <section>
      <PageHeader title="Token Gate" description="Content for the holders of your community's token." />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="rounded-lg border border-slate-200 bg-white p-5">
          <h2 className="text-sm font-medium text-slate-600">Token holders reached</h2>
          {contacts.isPending ? (
            <Spinner label="Loading the contact count" />
          ) : contacts.isError ? (
            <p role="alert" className="mt-2 text-sm text-red-700">
              The contact count could not be loaded.
            </p>
          ) : (
            <p className="mt-2 text-3xl font-semibold text-slate-900" data-testid="token-gate-contacts">
              {contacts.data.toLocaleString('en-US')} contacts
            </p>
          )}
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-5">
          <h2 className="text-sm font-medium text-slate-600">Community page</h2>
          {community.isPending ? (
            <Spinner label="Loading the community" />
          ) : community.isError ? (
            <p role="alert" className="mt-2 text-sm text-red-700">
              The community could not be loaded.
            </p>
          ) : community.data ? (
            <div className="mt-2">
              <p className="text-lg font-semibold text-slate-900">{community.data.title}</p>
              <a
                className="text-sm text-indigo-700 underline"
                href={community.data.url}
                target="_blank"
                rel="noopener noreferrer"
              >
                Open the community page
              </a>
            </div>
          ) : (
            <p className="mt-2 text-sm text-slate-700">Your community has no page yet.</p>
          )}
        </div>
      </div>
      {user && <p className="mt-6 text-sm text-slate-600">Unlocked for {user.email}.</p>}
    </section>
  );
}
