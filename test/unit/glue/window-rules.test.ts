import { describe, expect, it, vi } from 'vitest';
import { APP_ENTRY_URL, externalLink, isAppUrl, isNavigationAllowed } from '../../../electron/desktop/app-url.js';
import { guardWebContents } from '../../../electron/glue/window-security.js';

type Listener = (event: { preventDefault: () => void }, url: string) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  return {
    contents: {
      on: (name: string, fn: Listener) => listeners.set(name, fn),
      setWindowOpenHandler: (fn: typeof openHandler) => {
        openHandler = fn;
      },
    },
    fire(name: string, url: string): boolean {
      let prevented = false;
      listeners.get(name)?.({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    },
    open: (url: string) => openHandler?.({ url }),
  };
}

describe('window navigation rules', () => {
  it('allows navigation only inside the app', () => {
    expect(isNavigationAllowed(APP_ENTRY_URL)).toBe(true);
    expect(isNavigationAllowed('atelier://app/index.html#/history')).toBe(true);
    for (const url of [
      'https://example.com/',
      'file:///etc/passwd',
      'atelier://evil/',
      'atelier-media://image/x',
      'javascript:alert(1)',
      '',
    ]) {
      expect(isNavigationAllowed(url)).toBe(false);
    }
  });

  it('opens only https links, parsed, and never credentials-bearing ones', () => {
    expect(externalLink('https://platform.openai.com/api-keys')).toBe('https://platform.openai.com/api-keys');
    expect(externalLink('HTTPS://Example.COM/a b')).toBe('https://example.com/a%20b');
    for (const url of [
      'http://example.com',
      'file:///C:/x',
      'javascript:alert(1)',
      'https://user:pw@example.com/',
      'mailto:a@b.c',
      'https:',
      'nonsense',
      'atelier://app/',
    ]) {
      expect(externalLink(url)).toBeNull();
    }
    expect(isAppUrl('atelier://app:1234/')).toBe(false);
  });

  it('guards a window: blocks foreign navigation and redirects, denies every new window, hands https out', () => {
    const fake = fakeContents();
    const openExternal = vi.fn(async () => undefined);
    guardWebContents(fake.contents as never, openExternal);
    expect(fake.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(fake.fire('will-navigate', 'atelier://app/index.html')).toBe(false);
    expect(fake.fire('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(fake.fire('will-attach-webview', 'atelier://app/')).toBe(true);
    expect(fake.open('https://example.com/docs')).toEqual({ action: 'deny' });
    expect(fake.open('http://example.com/docs')).toEqual({ action: 'deny' });
    expect(fake.open('atelier://app/index.html')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://example.com/docs']]);
  });
});
