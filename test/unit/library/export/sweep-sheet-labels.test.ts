/** A sheet's words: escaped for SVG, cleaned of what XML forbids, cut to their box with an ellipsis. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanLabel,
  escapeXml,
  fitLabel,
  labelsSvg,
  textEm,
  wrapLabel,
} from '../../../../electron/library/export/sweep-sheet-labels.js';

describe('sheet labels', () => {
  it('escapes every character SVG gives a meaning', () => {
    expect(escapeXml(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;',
    );
  });

  it('drops what XML forbids and keeps one line', () => {
    expect(cleanLabel('a\u0000b\u0008c\ufffe\nd\t e\ud800f')).toBe('abc d ef');
    // A pair of surrogates (an emoji) stays whole.
    expect(cleanLabel('ok 🎨')).toBe('ok 🎨');
  });

  it('cuts a long label to its box with an ellipsis, and leaves a short one whole', () => {
    expect(fitLabel('7.5', 200, 14)).toBe('7.5');
    const cut = fitLabel('a very long LoRA name that cannot fit in a narrow column', 100, 14);
    expect(cut.endsWith('…')).toBe(true);
    expect(textEm(cut) * 14).toBeLessThanOrEqual(100);
    expect(fitLabel('x'.repeat(100_000), 1_000_000, 12).length).toBeLessThanOrEqual(401);
    expect(fitLabel('anything', 2, 14)).toBe('');
  });

  it('never splits a surrogate pair and always fits its width', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.integer({ min: 0, max: 600 }), (text, width) => {
        const out = fitLabel(text, width, 12);
        expect(textEm(out) * 12).toBeLessThanOrEqual(Math.max(width, 0) + 1e-9);
        expect(out).toBe(cleanLabel(out));
        expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out)).toBe(false);
      }),
    );
  });

  it('writes each label as text inside one SVG, nothing a label says becoming markup', () => {
    const svg = labelsSvg(
      { left: 10, top: 20, width: 400, height: 40 },
      [{ text: '</text><script>x</script>', rect: { left: 10, top: 20, width: 400, height: 40 } }],
      14,
    );
    expect(svg).not.toContain('<script>');
    expect(svg.match(/<text /g)).toHaveLength(1);
    expect(svg).toContain('x="0.0" y="20.0"');
  });

  it('wraps a long value over the lines it may take, breaking after separators', () => {
    const lines = wrapLabel('add_detail_lora_v11_extra_long_file_name.safetensors', 12 * 14, 14, 4);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe('add_detail_lora_v11_extra_long_file_name.safetensors');
    expect(lines.slice(0, -1).every((l) => /[_.-]$/.test(l))).toBe(true);
    expect(wrapLabel('a short one', 400, 14, 4)).toEqual(['a short one']);
    const cut = wrapLabel('word '.repeat(200), 100, 14, 3);
    expect(cut).toHaveLength(3);
    expect(cut[2]!.endsWith('…')).toBe(true);
  });

  it('keeps every wrapped line within its width and the line count', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 6 }),
        (text, width, maxLines) => {
          const lines = wrapLabel(text, width, 12, maxLines);
          expect(lines.length).toBeLessThanOrEqual(maxLines);
          for (const line of lines) expect(textEm(line) * 12).toBeLessThanOrEqual(width + 1e-9);
        },
      ),
    );
  });

  it('draws a wrapped label as one text of lines, centred on its box', () => {
    const svg = labelsSvg(
      { left: 0, top: 0, width: 100, height: 200 },
      [{ text: 'one_two_three_four_five_six', rect: { left: 0, top: 0, width: 100, height: 200 }, lines: 4 }],
      14,
    );
    const ys = [...svg.matchAll(/<tspan x="0.0" y="([0-9.]+)">/g)].map((m) => Number(m[1]));
    expect(ys.length).toBeGreaterThan(1);
    expect((ys[0]! + ys[ys.length - 1]!) / 2).toBeCloseTo(100, 0);
  });
});
