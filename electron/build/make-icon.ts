/**
 * Draws the app icon (an easel-like frame on a warm gradient) with sharp from SVG, so the repository carries no
 * opaque binary without its source. `tsx electron/build/make-icon.ts` rewrites electron/build/resources/icon*.png.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="0 0 1024 1024">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#f2a65a"/><stop offset="1" stop-color="#a8326e"/>
    </linearGradient>
  </defs>
  <rect x="64" y="64" width="896" height="896" rx="200" fill="url(#bg)"/>
  <rect x="262" y="232" width="500" height="400" rx="28" fill="#fff8ef" stroke="#3a1d2e" stroke-width="28"/>
  <circle cx="400" cy="360" r="52" fill="#f2a65a"/>
  <path d="M290 600 L450 450 L560 540 L640 470 L735 600 Z" fill="#a8326e"/>
  <path d="M512 632 L512 820 M400 632 L320 840 M624 632 L704 840" stroke="#3a1d2e" stroke-width="32" stroke-linecap="round"/>
</svg>`;

const dir = join(dirname(fileURLToPath(import.meta.url)), 'resources');
await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toFile(join(dir, 'icon.png'));
await sharp(Buffer.from(svg)).resize(512, 512).png({ compressionLevel: 9 }).toFile(join(dir, 'icon-512.png'));
process.stdout.write(`Wrote ${join(dir, 'icon.png')} (1024) and icon-512.png.\n`);
