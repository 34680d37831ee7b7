import type { Page } from 'playwright-core';
import { EVENT_SUBSCRIPTIONS } from '../../shared/bridge.js';
import { BRIDGE_CHANNELS } from '../../electron/host/channel-names.js';

/**
 * The renderer as the desktop app runs it, in Chromium: a window.atelier like the preload's, whose engine channels go
 * to the headless host over HTTP and whose OS touches (folder picker, drag-out, dropped-file matching) are recorded
 * and answered here. Electron cannot run on this machine; main's side of those touches is unit-tested with a mock.
 */
export interface FakeDesktop {
  calls: { channel: string; input: unknown }[];
  /** What the folder picker answers next (null: the person closed it). */
  pick: string | null;
  /** The image ids of the last OS drag-out. */
  dragged: string[];
  /** Where a dropped File (by name) "lives on disk", as webUtils.getPathForFile would say. */
  paths: Record<string, string>;
}

/** The page's globals these functions touch (this file is type-checked for Node, without the DOM's types). */
interface PageGlobals {
  fakeDesktop: FakeDesktop;
  DataTransfer: new () => { items: { add(file: File): void }; readonly types: readonly string[] };
  DragEvent: new (
    type: string,
    init: { bubbles: boolean; cancelable: boolean; dataTransfer: unknown },
  ) => Event & { readonly defaultPrevented: boolean };
}

/** Where the fake main says an image's original lives: what its drag-out carries. */
export const fakeOriginal = (imageId: string) => `/library/originals/${imageId}.png`;

function install({ channels, events }: { channels: readonly string[]; events: Record<string, string> }): void {
  const desktop: FakeDesktop = { calls: [], pick: null, dragged: [], paths: {} };
  const original = (imageId: string) => `/library/originals/${imageId}.png`;
  const ok = (value: unknown) => ({ ok: true, value });
  const local: Record<string, (input: Record<string, unknown>) => unknown> = {
    'desktop.pickFolder': () => ok({ path: desktop.pick }),
    'desktop.startDrag': (input) => {
      desktop.dragged = (input.imageIds as string[] | undefined) ?? [input.imageId as string];
      return ok({ files: desktop.dragged.length, skipped: 0 });
    },
    'desktop.droppedImages': (input) =>
      ok({
        images: (input.paths as string[]).flatMap((path) =>
          desktop.dragged.filter((id) => original(id) === path).map((imageId) => ({ path, imageId })),
        ),
      }),
  };
  const bridge: Record<string, unknown> = {};
  for (const channel of channels) {
    bridge[channel] = async (input: Record<string, unknown>) => {
      desktop.calls.push({ channel, input });
      const answer = local[channel];
      if (answer !== undefined) return answer(input);
      const response = await fetch(`/api/${channel}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input ?? {}),
      });
      return response.json();
    };
  }
  let source: EventSource | null = null;
  for (const [event, method] of Object.entries(events)) {
    bridge[method] = (listener: (payload: unknown) => void) => {
      source ??= new EventSource('/api/events', { withCredentials: true });
      const relay = (message: Event) => listener(JSON.parse(String((message as MessageEvent).data)));
      source.addEventListener(event, relay);
      return () => source?.removeEventListener(event, relay);
    };
  }
  bridge.pathsForFiles = (files: readonly File[]) =>
    files.map((f) => desktop.paths[f.name] ?? '').filter((p) => p !== '');
  bridge.onMenuCommand = () => () => undefined;
  Object.assign(globalThis, { atelier: bridge, fakeDesktop: desktop });
}

export async function installFakeDesktop(page: Page): Promise<void> {
  await page.addInitScript(install, { channels: BRIDGE_CHANNELS, events: EVENT_SUBSCRIPTIONS });
}

/** The calls the page made through the bridge to channels starting with prefix (the desktop's by default). */
export async function desktopCalls(page: Page, prefix = 'desktop.'): Promise<{ channel: string; input: unknown }[]> {
  return page.evaluate(
    (p) => (globalThis as unknown as PageGlobals).fakeDesktop.calls.filter((c) => c.channel.startsWith(p)),
    prefix,
  );
}

export async function setPickedFolder(page: Page, path: string | null): Promise<void> {
  await page.evaluate((p) => void ((globalThis as unknown as PageGlobals).fakeDesktop.pick = p), path);
}

/** A drag of the card's button as Chromium starts it: whether the page cancelled it, and what it put in the drag. */
export async function startCardDrag(page: Page, jobId: string): Promise<{ prevented: boolean; types: string[] }> {
  return page.locator(`[data-card="${jobId}"]`).evaluate((el) => {
    const g = globalThis as unknown as PageGlobals;
    const transfer = new g.DataTransfer();
    const event = new g.DragEvent('dragstart', { bubbles: true, cancelable: true, dataTransfer: transfer });
    el.dispatchEvent(event);
    return { prevented: event.defaultPrevented, types: [...transfer.types] };
  });
}

/** Files from the disk dragged over an element and dropped on it (enter, over, drop), as the OS delivers them. */
export async function dropFiles(
  page: Page,
  selector: string,
  files: { name: string; path: string }[],
  events = ['dragenter', 'dragover', 'drop'],
): Promise<void> {
  await page
    .locator(selector)
    .first()
    .evaluate(
      (el, [list, types]) => {
        const g = globalThis as unknown as PageGlobals;
        const desktop = g.fakeDesktop;
        const transfer = new g.DataTransfer();
        for (const f of list) {
          desktop.paths[f.name] = f.path;
          transfer.items.add(new File([new Uint8Array([0x89, 0x50])], f.name, { type: 'image/png' }));
        }
        for (const type of types)
          el.dispatchEvent(new g.DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      },
      [files, events] as const,
    );
}
