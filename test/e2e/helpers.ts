import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ChannelName, ChannelOutput, ChannelRequest } from '../../shared/contract.js';
import type { Host } from './harness.js';

/** Calls the host's API directly (seeding), with the token as a bearer. */
export async function apiCall<C extends ChannelName>(
  host: Host,
  channel: C,
  input: ChannelRequest<C>,
): Promise<ChannelOutput<C>> {
  const token = new URL(host.url).searchParams.get('token')!;
  const response = await fetch(`${host.origin}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!body.ok) throw new Error(`${channel}: ${body.error?.message}`);
  return body.value as ChannelOutput<C>;
}

/** Queues a small builtin job and waits until it is done. */
export async function seedJob(host: Host, prompt: string, size = 64): Promise<string> {
  const { job } = await apiCall(host, 'jobs.submit', {
    provider: 'builtin',
    prompt,
    width: size,
    height: size,
    count: 1,
    steps: 2,
  });
  await waitFor(
    async () => (await apiCall(host, 'jobs.get', { id: job.id })).status === 'succeeded',
    `job "${prompt}" to finish`,
  );
  return job.id;
}

export async function waitFor(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The prompts of the cards shown in the grid, in order. */
export async function gridPrompts(page: Page): Promise<string[]> {
  return page
    .locator('.grid-canvas .card-open')
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label') ?? ''));
}

export async function expectGrid(page: Page, prompts: string[]): Promise<void> {
  let last: string[] = [];
  try {
    await waitFor(
      async () => {
        last = await gridPrompts(page);
        return JSON.stringify([...last].sort()) === JSON.stringify([...prompts].sort());
      },
      `grid to show ${JSON.stringify(prompts)}`,
      10_000,
    );
  } catch {
    expect(last.sort()).toEqual([...prompts].sort());
  }
}

/** The few DOM shapes the page callbacks touch; this side compiles without DOM types. */
export interface ImageLike {
  complete: boolean;
  naturalWidth: number;
}
export interface FocusDoc {
  document: {
    activeElement: { tagName: string; className: string; id: string; getAttribute(name: string): string | null } | null;
  };
}

export async function search(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
}

interface ObservedEl {
  getAttribute?(name: string): string | null;
  querySelectorAll?(selector: string): ArrayLike<ObservedEl>;
}

/**
 * Records, from inside the page, every value a progress bar shows from now on: polling from the test misses the
 * steps of a fast job on a busy machine. Returns a reader for the distinct values seen so far.
 */
export async function recordProgressValues(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const g = globalThis as unknown as {
      __progressSeen: string[];
      document: { body: unknown };
      MutationObserver: new (
        cb: (records: Array<{ target: ObservedEl; addedNodes: ArrayLike<ObservedEl> }>) => void,
      ) => {
        observe(node: unknown, options: Record<string, unknown>): void;
      };
    };
    g.__progressSeen = [];
    const note = (el: ObservedEl): void => {
      const value = typeof el.getAttribute === 'function' ? el.getAttribute('aria-valuenow') : null;
      if (value !== null && !g.__progressSeen.includes(value)) g.__progressSeen.push(value);
    };
    new g.MutationObserver((records) => {
      for (const record of records) {
        note(record.target);
        for (const node of Array.from(record.addedNodes)) {
          note(node);
          for (const bar of Array.from(node.querySelectorAll?.('[role="progressbar"]') ?? [])) note(bar);
        }
      }
    }).observe(g.document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  });
  return () => page.evaluate(() => (globalThis as unknown as { __progressSeen: string[] }).__progressSeen);
}

const clocked = new WeakSet<Page>();
/** Stops the page's timers and clock (installing Playwright's fake clock once per page); `clock.resume()` lets go. */
export async function holdClock(page: Page): Promise<void> {
  if (!clocked.has(page)) {
    await page.clock.install();
    clocked.add(page);
  }
  await page.clock.pauseAt(((await page.evaluate('Date.now()')) as number) + 1_000);
}

/** The filter drop-downs (status, provider, source, sort…) sit in the toolbar's Filters popover: opened if closed. */
export async function openFilters(page: Page): Promise<Locator> {
  const popover = page.getByRole('group', { name: 'Filter and sort' });
  if ((await popover.count()) === 0)
    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Filters/ })
      .click();
  await popover.waitFor();
  return popover;
}
