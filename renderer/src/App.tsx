import { useEffect, useState } from 'react';
import type { AppAbout } from '../../app/contract/app.js';
import type { PlumbClient } from './client.js';
import { RunningTestNav } from './shell/RunningTestNav.js';
import { views } from './views.js';

function initialView(): string {
  // The first part names the view; a view may use the rest (#/results/ID).
  const fromHash = window.location.hash.replace(/^#\/?/, '').split('/')[0] ?? '';
  return views.some((v) => v.id === fromHash) ? fromHash : views[0]!.id;
}

export function App({ client }: { client: PlumbClient }) {
  const [about, setAbout] = useState<AppAbout | null>(null);
  const [connectionError, setConnectionError] = useState<string | null>(null);
  const [viewId, setViewId] = useState(initialView);
  // Sections once opened stay mounted (hidden when not shown), so a scan, a form or a chosen
  // folder is where the user left it; a view that lists saved data re-opens fresh instead.
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set([viewId]));
  if (!visited.has(viewId)) setVisited(new Set([...visited, viewId]));

  useEffect(() => {
    client
      .call('app.about', {})
      .then(setAbout, (error: Error) => setConnectionError(error.message));
  }, [client]);

  useEffect(() => {
    const onHash = () => setViewId(initialView());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const view = views.find((v) => v.id === viewId) ?? views[0]!;

  return (
    <div className="app">
      <nav className="sidebar" aria-label="Sections">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">Plumb</span>
        </div>
        <ul className="nav-list">
          {views.map((v) => (
            <li key={v.id}>
              <a
                className="nav-item"
                href={`#/${v.id}`}
                aria-current={v.id === view.id ? 'page' : undefined}
                onClick={() => setViewId(v.id)}
              >
                <span className="nav-title">{v.title}</span>
                <span className="nav-hint">{v.hint}</span>
              </a>
              {v.id === 'bench' ? <RunningTestNav client={client} /> : null}
            </li>
          ))}
        </ul>
        <span className="app-meta" aria-label="Version">
          {about
            ? `Plumb ${about.version} · ${about.transport === 'web' ? 'in your browser' : 'desktop'}`
            : '\u00a0'}
        </span>
      </nav>
      <main className="app-main">
        {connectionError ? (
          <div className="banner banner-error" role="alert">
            {connectionError}
          </div>
        ) : null}
        {about && !about.nativeAvailable ? (
          <div className="banner banner-warning" role="alert">
            The native engine is not built, so measurements are unavailable. Run{' '}
            <code>npm run build:native</code>.
          </div>
        ) : null}
        {views
          .filter((v) => v.id === view.id || (v.keepAlive && visited.has(v.id)))
          .map((v) => (
            <div key={v.id} className="view" hidden={v.id !== view.id}>
              {v.render({ client, about })}
            </div>
          ))}
      </main>
    </div>
  );
}
