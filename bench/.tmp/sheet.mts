import { mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { seedLargeLibrary } from '../../test/fixtures/large-library.js';
const dir = mkdtempSync('/tmp/i12b-sheet-');
await seedLargeLibrary(dir, 5, 5);
const files = readdirSync(join(dir, 'thumbs'), { recursive: true }).filter((f) => String(f).endsWith('.webp')).map((f) => join(dir, 'thumbs', String(f)));
const tiles = await Promise.all(files.map(async (f) => ({ input: await sharp(f).resize({ height: 200 }).png().toBuffer(), meta: await sharp(f).resize({ height: 200 }).toBuffer({ resolveWithObject: true }) })));
let x = 0; const comp = [];
for (const t of tiles) { comp.push({ input: t.input, left: x, top: 0 }); x += t.meta.info.width + 6; }
await sharp({ create: { width: x, height: 200, channels: 3, background: '#222' } }).composite(comp).png().toFile('/tmp/i12b/sheet.png');
console.log(dir, files.length);
