import { useEffect, useState, type ComponentType } from 'react';
import { Link, useParams } from '@console/shared/router';
import type { App } from '@console/shared/contracts';
import { useConsole } from '@console/shared/session';
import { loadApplet, registerApplet } from '../apps/applet-remote';
import { reloadApps, useApps } from '../apps/apps-store';
import { PageLoading, Unavailable } from '../components/unavailable';

/** Applets already loaded (by id and manifest), so going back to one renders at once. */
const loaded = new Map<string, ComponentType>();
const keyOf = (app: App) => `${app._id} ${app.manifest_url} ${app.module}`;

/** One applet's page: registered and loaded at run time; "unavailable, retry" when it fails. */
function AppletView({ app }: { app: App }) {
  const key = keyOf(app);
  const [result, setResult] = useState<ComponentType | 'loading' | 'failed'>(() => loaded.get(key) ?? 'loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (loaded.has(key)) return;
    let live = true;
    loadApplet(app).then(
      (Page) => {
        loaded.set(key, Page);
        if (live) setResult(() => Page);
      },
      (error: unknown) => {
        console.error(`[console] applet ${app.slug} failed to load`, error);
        if (live) setResult('failed');
      },
    );
    return () => {
      live = false;
    };
  }, [key, app, attempt]);

  if (result === 'loading') return <PageLoading />;
  if (result === 'failed') {
    return (
      <Unavailable
        onRetry={() => {
          // A failure here fails the page's next load too, which reports it.
          registerApplet(app, true).catch(() => undefined);
          setResult('loading');
          setAttempt((n) => n + 1);
        }}
      />
    );
  }
  const Page = result;
  return <Page />;
}

/**
 * `/apps/:slug`: an applet of the tenant's (GET /v1/apps). An applet the server did not list (another
 * plan's, disabled, unknown) is never registered or downloaded: the page says it is not available.
 */
export function AppletPage() {
  const { slug = '' } = useParams();
  const user = useConsole((s) => s.user);
  const apps = useApps(user);
  if (apps.status === 'loading') return <PageLoading />;
  if (apps.status === 'failed') return <Unavailable onRetry={reloadApps} />;
  const app = apps.apps.find((a) => a.slug === slug);
  if (!app) {
    return (
      <section className="mx-auto max-w-lg p-10">
        <h1 className="text-xl font-semibold">App not available</h1>
        <p className="mt-3 text-slate-700">This app is not part of your plan, or it no longer exists.</p>
        <Link className="mt-6 inline-block text-brand-700 underline" to="/">
          Go to the overview
        </Link>
      </section>
    );
  }
  return <AppletView key={keyOf(app)} app={app} />;
}
