import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe-core in the page (injected once) and returns the serious and critical violations, with their elements. */
export async function seriousViolations(page: Page, context?: string): Promise<AxeViolation[]> {
  // Two frames let a transition just started (a chip enabled as capabilities arrive) reach its end before colours are read.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const raf = (globalThis as unknown as { requestAnimationFrame(cb: () => void): void }).requestAnimationFrame;
        raf(() => raf(() => resolve()));
      }),
  );
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  // Evaluated through the debugger protocol: the app's CSP (script-src 'self') rightly refuses an inline script tag.
  if (!loaded) await page.evaluate(source);
  const result = await page.evaluate(async (ctx) => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            c: unknown,
            o: unknown,
          ): Promise<{
            violations: Array<{
              id: string;
              impact: string | null;
              help: string;
              nodes: Array<{ target: unknown[]; failureSummary?: string }>;
            }>;
          }>;
        };
      }
    ).axe;
    const found = await axe.run(ctx ?? (globalThis as unknown as { document: unknown }).document, {
      resultTypes: ['violations'],
    });
    return found.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map(
        (n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`,
      ),
    }));
  }, context ?? null);
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
