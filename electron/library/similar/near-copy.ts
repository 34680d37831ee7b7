/**
 * Whether two hashed images are near copies: the hashes close AND the colours alike. The hash is greyscale and reads
 * only the picture's structure; a flat image has none, so its 63 structural bits are rounding noise shared by every
 * flat image (a light-blue square and a blue one hash one bit apart). Colour settles those.
 */
import type { ColourSignature } from '../../media/perceptual-hash.js';

/** Near copies (resized, re-encoded, lightly cropped) are at most this many bits apart, calibrated on the fixture set. */
export const NEAR_COPY_DISTANCE = 12;
/** Below this spread of grey (of 127.5) a picture is flat: its hash says nothing about it. */
export const FLAT_SPREAD = 4;
/** A re-encoded or resized copy moves each channel's mean by a few levels; a crop by a little more. */
export const NEAR_COLOUR = 24;
/** Two flat pictures are copies only when they are the same colour, give or take the encoder's rounding. */
export const FLAT_COLOUR = 3;

const colourGap = (a: ColourSignature, b: ColourSignature): number =>
  Math.max(Math.abs(a.r - b.r), Math.abs(a.g - b.g), Math.abs(a.b - b.b));

export function isNearCopy(distance: number, a: ColourSignature, b: ColourSignature): boolean {
  if (distance > NEAR_COPY_DISTANCE) return false;
  const aFlat = a.spread < FLAT_SPREAD;
  const bFlat = b.spread < FLAT_SPREAD;
  // A flat picture and a textured one may share a hash by chance: never copies of each other.
  if (aFlat !== bFlat) return false;
  return colourGap(a, b) <= (aFlat ? FLAT_COLOUR : NEAR_COLOUR);
}
