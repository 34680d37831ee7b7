/** electron-builder afterPack hook (bundled to dist/build/after-pack.cjs): flips the Electron fuses. */
import type { AfterPackContext } from 'electron-builder';
import { applyFuses, electronBinary } from './fuses.js';

const ARCH_NAMES: Record<number, string> = { 0: 'ia32', 1: 'x64', 2: 'armv7l', 3: 'arm64', 4: 'universal' };

export async function afterPack(context: AfterPackContext): Promise<void> {
  const platform = context.electronPlatformName;
  const binary = electronBinary(
    context.appOutDir,
    platform,
    context.packager.appInfo.productFilename,
    // Only the Linux packager has an executable name (lowercased product name); others ignore it.
    (context.packager as unknown as { executableName?: string }).executableName ??
      context.packager.appInfo.productFilename,
  );
  await applyFuses(binary, platform, ARCH_NAMES[context.arch] ?? String(context.arch));
}

export default afterPack;
