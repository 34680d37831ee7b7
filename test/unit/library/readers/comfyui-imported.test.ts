import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importedJobFields } from '../../../../electron/library/import/to-imported.js';
import { readImageMetadata } from '../../../../electron/library/readers/read-image.js';
import { ImportedMetadata } from '../../../../shared/contract/imports.js';

const REAL = join(import.meta.dirname, '../../../fixtures/real/comfyui');
const fields = async (name: string) => {
  const read = await readImageMetadata(new Uint8Array(readFileSync(join(REAL, name))));
  return importedJobFields(read, { path: join(REAL, name), width: 64, height: 64, mode: 'link' });
};

describe('an imported ComfyUI file keeps its passes and its Flux guidance', () => {
  it('stores the refiner pass of an SDXL base + refiner file, in the contract’s shape', async () => {
    const { metadata } = await fields('sdxl-base-refiner.png');
    expect(ImportedMetadata.safeParse(metadata).success).toBe(true);
    expect(metadata.passes?.map((p) => [p.role, p.classType, p.settings['model']])).toEqual([
      ['refiner', 'KSamplerAdvanced', 'sd_xl_refiner_1.0.safetensors'],
    ]);
  });

  it('stores the Flux guidance beside the CFG', async () => {
    const { metadata } = await fields('flux-depth-lora.png');
    expect(ImportedMetadata.safeParse(metadata).success).toBe(true);
    expect(metadata.distilledGuidance).toBe(10);
  });
});
