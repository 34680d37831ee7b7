/**
 * One model or LoRA file as different tools spell it: A1111 lists `add_detail` or `sd15 [6ce0161689]`, ComfyUI lists
 * `styles/add_detail.safetensors`, an imported file says `Add_Detail`. Matching ignores folders, the file extension,
 * A1111's short hash and case.
 */

const EXTENSIONS = /\.(safetensors|ckpt|pt|pth|bin|gguf|sft|onnx)$/i;
// A1111's model title ends with the short hash in brackets: "v1-5-pruned-emaonly.safetensors [6ce0161689]".
const TITLE_HASH = /\s*\[[0-9a-f]{8,64}\]$/i;

/** The file's own name without folders, extension or title hash, its case kept: what A1111 calls a LoRA. */
export function assetBaseName(name: string): string {
  const bare = name.trim().replace(TITLE_HASH, '');
  const file = bare.slice(Math.max(bare.lastIndexOf('/'), bare.lastIndexOf('\\')) + 1);
  return file.replace(EXTENSIONS, '').trim();
}

/** What identifies the file whatever tool named it: its base name in lower case. */
export function assetStem(name: string): string {
  return assetBaseName(name).normalize('NFC').toLowerCase();
}

/** Whether two names are the same file as far as a name can tell. */
export function sameAsset(a: string, b: string): boolean {
  const stem = assetStem(a);
  return stem !== '' && stem === assetStem(b);
}

/** The listed name the wanted one matches: the exact name first, else the first with the same stem. */
export function findAsset(wanted: string, listed: readonly string[]): string | undefined {
  if (listed.includes(wanted)) return wanted;
  const stem = assetStem(wanted);
  if (stem === '') return undefined;
  return listed.find((name) => assetStem(name) === stem);
}
