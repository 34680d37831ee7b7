import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

describe('the public settings view', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('never shows credentials stored inside a base URL (defaults, or a library from before they were refused)', async () => {
    h = await startHarness({
      providerDefaults: { a1111: { baseUrl: 'http://artist:hunter22-secret@127.0.0.1:7860' } },
    });
    const view = await h.engine.handlers['settings.get']({});
    expect(view.providers['a1111']?.baseUrl).toBe('http://127.0.0.1:7860');
    expect(JSON.stringify(view)).not.toContain('hunter22-secret');
  });
});
