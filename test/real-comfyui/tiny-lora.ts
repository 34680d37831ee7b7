import { writeFile } from 'node:fs/promises';

/**
 * A minimal valid .safetensors (8-byte little-endian header length, a JSON header padded with spaces to 8 bytes, then
 * the data): one float32 tensor. ComfyUI's LoraLoader loads it and applies nothing (its key matches no layer), so a
 * job with it runs as the checkpoint alone, through the real loader.
 */
export function tinyLora(): Buffer {
  const header = JSON.stringify({
    __metadata__: { format: 'pt', atelier: 'test LoRA' },
    'atelier_tiny.alpha': { dtype: 'F32', shape: [1], data_offsets: [0, 4] },
  });
  const padded = header.padEnd(Math.ceil(header.length / 8) * 8, ' ');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(Buffer.byteLength(padded)));
  const data = Buffer.alloc(4);
  data.writeFloatLE(1);
  return Buffer.concat([length, Buffer.from(padded), data]);
}

export async function writeTinyLora(path: string): Promise<void> {
  await writeFile(path, tinyLora());
}
