import { FuseV1Options, FuseVersion, flipFuses, type FuseConfig } from '@electron/fuses';

/** Each fuse is baked into the Electron binary at package time; the reasons are why Atelier sets each one. */
export const FUSE_SETTINGS: { option: FuseV1Options; enabled: boolean; reason: string }[] = [
  {
    option: FuseV1Options.RunAsNode,
    enabled: false,
    reason: 'ELECTRON_RUN_AS_NODE would turn the signed app into a plain Node runtime for any script.',
  },
  {
    option: FuseV1Options.EnableCookieEncryption,
    enabled: true,
    reason: 'Cookies and session data on disk are encrypted with the OS keychain.',
  },
  {
    option: FuseV1Options.EnableNodeOptionsEnvironmentVariable,
    enabled: false,
    reason: 'NODE_OPTIONS could preload arbitrary code into the main process.',
  },
  {
    option: FuseV1Options.EnableNodeCliInspectArguments,
    enabled: false,
    reason: '--inspect would let anyone on the machine attach a debugger to the main process.',
  },
  {
    option: FuseV1Options.EnableEmbeddedAsarIntegrityValidation,
    enabled: true,
    reason: 'A tampered app.asar is refused at start (macOS and Windows).',
  },
  {
    option: FuseV1Options.OnlyLoadAppFromAsar,
    enabled: true,
    reason: 'The app code can only come from the (integrity-checked) app.asar, not a planted app/ folder.',
  },
];

export function fuseConfig(resetAdHocDarwinSignature: boolean): FuseConfig {
  const config: FuseConfig = { version: FuseVersion.V1, resetAdHocDarwinSignature };
  for (const fuse of FUSE_SETTINGS) (config as unknown as Record<number, boolean>)[fuse.option] = fuse.enabled;
  return config;
}

/** The Electron binary inside an unpacked app: the .app bundle on macOS, the .exe on Windows, the ELF on Linux. */
export function electronBinary(
  appOutDir: string,
  platform: string,
  productFilename: string,
  executableName: string,
): string {
  if (platform === 'darwin' || platform === 'mas') return `${appOutDir}/${productFilename}.app`;
  if (platform === 'win32') return `${appOutDir}/${productFilename}.exe`;
  return `${appOutDir}/${executableName}`;
}

export async function applyFuses(binary: string, platform: string, arch: string): Promise<void> {
  // Flipping bytes breaks an ad-hoc signature; arm64 macOS refuses unsigned code, so re-sign ad hoc (real signing follows).
  await flipFuses(binary, fuseConfig(platform === 'darwin' && arch === 'arm64'));
}
