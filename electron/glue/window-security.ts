import type { WebContents } from 'electron';
import { externalLink, isNavigationAllowed } from '../desktop/app-url.js';

type Guarded = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * The window never leaves the app: navigation away is blocked, new windows are denied, and an https link is handed
 * to the system browser only after URL parsing. Webviews are refused even if something tries to attach one.
 */
export function guardWebContents(contents: Guarded, openExternal: (url: string) => Promise<void> | void): void {
  contents.on('will-navigate', (event, url) => {
    if (!isNavigationAllowed(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isNavigationAllowed(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const link = externalLink(url);
    if (link !== null) void Promise.resolve(openExternal(link)).catch(() => undefined);
    return { action: 'deny' };
  });
}
