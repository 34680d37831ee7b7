/** A sheet's words as SVG: every string from settings or a server escaped, cleaned and cut to its box. */
import type { Rect } from './sweep-sheet-layout.js';

export const SHEET_FONTS = "'DejaVu Sans', 'Liberation Sans', 'Segoe UI', Arial, Helvetica, sans-serif";
const ELLIPSIS = '…';
/** No label is longer than this, whatever its box: a 30,000-character prompt is not drawn whole. */
const MAX_LABEL_CHARS = 400;

/** Characters XML 1.0 forbids (controls, lone surrogates, U+FFFE/U+FFFF): librsvg refuses a document holding one. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** One line of drawable text: XML's forbidden characters dropped, line breaks and tabs as spaces, runs of space as one. */
export function cleanLabel(text: string): string {
  return text.replace(NOT_XML, '').replace(/\s+/g, ' ').trim();
}

/** Wide characters (CJK, emoji) take about twice a Latin letter's width. */
function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x1100 && (code <= 0x115f || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3)))
    return 1;
  if ((code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe30 && code <= 0xfe4f) || (code >= 0xff00 && code <= 0xff60))
    return 1;
  if (code >= 0x1f300) return 1;
  return 0.6;
}

/** Bold letters run about a tenth wider. */
const BOLD = 1.1;

/** The label's width in em (font sizes), as drawn on one line. */
export function textEm(text: string, bold = false): number {
  const chars = Array.from(cleanLabel(text)).slice(0, MAX_LABEL_CHARS);
  return chars.reduce((sum, c) => sum + charWidth(c), 0) * (bold ? BOLD : 1);
}

/** The label cut to about `width` pixels at `font` px, ending in an ellipsis when cut (never inside a surrogate pair). */
export function fitLabel(text: string, width: number, font: number, bold = false): string {
  const chars = Array.from(cleanLabel(text));
  const scale = bold ? BOLD : 1;
  const widths = chars.map((c) => charWidth(c) * scale);
  const room = Math.max(0, width / font);
  const total = widths.reduce((sum, w) => sum + w, 0);
  if (total <= room && chars.length <= MAX_LABEL_CHARS) return chars.join('');
  const ellipsis = charWidth(ELLIPSIS) * scale;
  let used = ellipsis;
  let end = 0;
  while (end < chars.length && end < MAX_LABEL_CHARS && used + widths[end]! <= room) {
    used += widths[end]!;
    end += 1;
  }
  if (end === 0) return room >= ellipsis ? ELLIPSIS : '';
  return `${chars.slice(0, end).join('').trimEnd()}${ELLIPSIS}`;
}

/** A wrapped line may end after these: file names break at their underscores, dashes and dots. */
const BREAK_AFTER = new Set([' ', '_', '-', '/', '.', ',']);

/**
 * The label over at most `maxLines` lines of `width` pixels, each broken after a space or separator where one is
 * near, the last cut with an ellipsis when the rest does not fit.
 */
export function wrapLabel(text: string, width: number, font: number, maxLines: number, bold = false): string[] {
  const chars = Array.from(cleanLabel(text)).slice(0, MAX_LABEL_CHARS);
  const scale = bold ? BOLD : 1;
  const room = width / font;
  const lines: string[] = [];
  let start = 0;
  while (lines.length < maxLines - 1) {
    let used = 0;
    let end = start;
    let lastBreak = -1;
    while (end < chars.length && used + charWidth(chars[end]!) * scale <= room) {
      used += charWidth(chars[end]!) * scale;
      if (BREAK_AFTER.has(chars[end]!)) lastBreak = end + 1;
      end += 1;
    }
    // The rest fits on this line, or not even one character does: the last line below takes it.
    if (end >= chars.length || end === start) break;
    const cut = lastBreak > start ? lastBreak : end;
    const line = chars.slice(start, cut).join('').trim();
    if (line !== '') lines.push(line);
    start = cut;
    while (chars[start] === ' ') start += 1;
  }
  const last = fitLabel(chars.slice(start).join(''), width, font, bold);
  if (last !== '') lines.push(last);
  return lines;
}

export type Align = 'start' | 'middle' | 'end';

export interface Label {
  text: string;
  rect: Rect;
  align?: Align;
  bold?: boolean;
  /** A muted colour (settings line, empty cells). */
  muted?: boolean;
  /** A failure's colour. */
  alert?: boolean;
  /** Times the sheet's font size (the title is larger). */
  scale?: number;
  /** Lines the label may wrap over (one when absent). */
  lines?: number;
}

export const SHEET_COLOURS = {
  background: '#1f2023',
  letterbox: '#2b2c30',
  text: '#ececec',
  muted: '#a3a6ad',
  alert: '#f28b82',
  outline: '#55585f',
};

/** One label as an SVG `<text>`, its words fitted to the rect (the caller draws it at the rect's origin). */
function textElement(label: Label, sheetFont: number): string {
  const { rect } = label;
  const font = Math.round(sheetFont * (label.scale ?? 1));
  const bold = label.bold === true;
  const maxLines = label.lines ?? 1;
  const lines =
    maxLines > 1
      ? wrapLabel(label.text, rect.width, font, maxLines, bold)
      : [fitLabel(label.text, rect.width, font, bold)];
  if (lines.length === 0 || lines[0] === '') return '';
  const align = label.align ?? 'start';
  const x = align === 'start' ? rect.left : align === 'middle' ? rect.left + rect.width / 2 : rect.left + rect.width;
  const step = font * 1.25;
  const first = rect.top + rect.height / 2 - ((lines.length - 1) * step) / 2;
  const fill = label.alert ? SHEET_COLOURS.alert : label.muted ? SHEET_COLOURS.muted : SHEET_COLOURS.text;
  const body =
    lines.length === 1
      ? escapeXml(lines[0]!)
      : lines
          .map(
            (line, i) => `<tspan x="${x.toFixed(1)}" y="${(first + i * step).toFixed(1)}">${escapeXml(line)}</tspan>`,
          )
          .join('');
  return (
    `<text x="${x.toFixed(1)}" y="${first.toFixed(1)}" font-size="${font}" text-anchor="${align}" ` +
    `dominant-baseline="central" fill="${fill}"${bold ? ' font-weight="bold"' : ''}>${body}</text>`
  );
}

/**
 * The labels of one band of the sheet (`band`: its place on the sheet) as one SVG of the band's size: each drawn as
 * small pieces so a sheet of 8,192 px never rasterises one huge overlay.
 */
export function labelsSvg(band: Rect, labels: readonly Label[], font: number): string {
  const shifted = labels.map((l) => ({
    ...l,
    rect: { ...l.rect, left: l.rect.left - band.left, top: l.rect.top - band.top },
  }));
  const body = shifted.map((l) => textElement(l, font)).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${band.width}" height="${band.height}" ` +
    `font-family="${SHEET_FONTS}">${body}</svg>`
  );
}

/** An empty cell: its outline and its word ("failed", "missing", "pending") in the middle. */
export function emptyCellSvg(rect: Rect, word: string, font: number, alert: boolean): string {
  const inner: Rect = { left: 0, top: 0, width: rect.width, height: rect.height };
  const text = textElement({ text: word, rect: inner, align: 'middle', muted: !alert, alert }, font);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${rect.width}" height="${rect.height}" font-family="${SHEET_FONTS}">` +
    `<rect x="0.5" y="0.5" width="${rect.width - 1}" height="${rect.height - 1}" fill="${SHEET_COLOURS.letterbox}" ` +
    `stroke="${SHEET_COLOURS.outline}" stroke-dasharray="6 4"/>${text}</svg>`
  );
}
