import { startsWith, u16be, u32be, utf8OrLatin1 } from './bytes.js';

const PHOTOSHOP = 'Photoshop 3.0\0';
const IPTC_RESOURCE = 0x0404;
const CAPTION = [2, 120];

/** The IPTC-NAA block among the 8BIM image resources of a JPEG APP13 body, or undefined. */
function iptcBlock(body: Uint8Array): Uint8Array | undefined {
  if (!startsWith(body, PHOTOSHOP)) return undefined;
  let at = PHOTOSHOP.length;
  while (at + 12 <= body.length && startsWith(body, '8BIM', at)) {
    const id = u16be(body, at + 4)!;
    // A Pascal name, padded so that its length byte and text together are even.
    const nameLength = body[at + 6]!;
    const sizeAt = at + 6 + nameLength + 1 + ((nameLength + 1) % 2);
    const size = u32be(body, sizeAt);
    if (size === undefined || sizeAt + 4 + size > body.length) return undefined;
    if (id === IPTC_RESOURCE) return body.subarray(sizeAt + 4, sizeAt + 4 + size);
    at = sizeAt + 4 + size + (size % 2);
  }
  return undefined;
}

/** The caption (IPTC 2:120, Caption-Abstract) of an APP13 segment body: Midjourney and photo tools write it. */
export function iptcCaption(body: Uint8Array): string | undefined {
  const block = iptcBlock(body);
  if (block === undefined) return undefined;
  for (let at = 0; at + 5 <= block.length && block[at] === 0x1c;) {
    const length = u16be(block, at + 3)!;
    // Extended lengths (high bit set) are for binary data, never a caption: stop there.
    if (length & 0x8000) return undefined;
    const end = at + 5 + length;
    if (end > block.length) return undefined;
    if (block[at + 1] === CAPTION[0] && block[at + 2] === CAPTION[1]) return utf8OrLatin1(block.subarray(at + 5, end));
    at = end;
  }
  return undefined;
}
