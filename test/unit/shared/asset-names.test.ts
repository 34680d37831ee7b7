import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assetBaseName, assetStem, findAsset, sameAsset } from '../../../shared/mapping/asset-names.js';

describe('asset names across tools', () => {
  it('an A1111 name, a ComfyUI file name with folders and an imported spelling are one file', () => {
    expect(sameAsset('add_detail', 'styles/add_detail.safetensors')).toBe(true);
    expect(sameAsset('Add_Detail', 'styles\\ADD_DETAIL.safetensors')).toBe(true);
    expect(sameAsset('v1-5-pruned-emaonly.safetensors [6ce0161689]', 'v1-5-pruned-emaonly')).toBe(true);
    expect(sameAsset('sd15.ckpt', 'SD15.safetensors')).toBe(true);
  });

  it('different files stay different, and an empty name matches nothing', () => {
    expect(sameAsset('add_detail', 'add_detail_v2')).toBe(false);
    // A dot that is not a model extension is part of the name.
    expect(sameAsset('style.v2', 'style')).toBe(false);
    expect(sameAsset('', '')).toBe(false);
    expect(sameAsset('folder/', 'other/')).toBe(false);
  });

  it('keeps the case in the base name A1111 is sent', () => {
    expect(assetBaseName('styles/Ink Wash.safetensors')).toBe('Ink Wash');
    expect(assetBaseName('Model.ckpt [abcdef0123]')).toBe('Model');
  });

  it('finds the listed spelling: the exact name first, then the same stem', () => {
    const listed = ['styles/add_detail.safetensors', 'add_detail', 'ink.safetensors'];
    expect(findAsset('add_detail', listed)).toBe('add_detail');
    expect(findAsset('INK', listed)).toBe('ink.safetensors');
    expect(findAsset('gone', listed)).toBeUndefined();
  });

  it('any name matches itself with folders and an extension added, in any case', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9_ -]{1,12}$/).filter((s) => s.trim() !== '');
    fc.assert(
      fc.property(
        part,
        fc.array(part, { maxLength: 3 }),
        fc.constantFrom('.safetensors', '.ckpt', '.pt', ''),
        (name, dirs, ext) => {
          const file = [...dirs, `${name}${ext}`].join('/');
          expect(sameAsset(name, file.toUpperCase())).toBe(true);
          expect(findAsset(name.toLowerCase(), ['unrelated-x', file])).toBe(file);
          expect(assetStem(file)).toBe(assetStem(name));
        },
      ),
    );
  });
});
