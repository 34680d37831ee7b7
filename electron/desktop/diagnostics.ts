/**
 * Help → Copy diagnostics: what a person pastes into a bug report. Versions, where things are and how big the
 * library is; built from counts, plus the person's ComfyUI node rules (node class and input names, which say how
 * their files are read), so no prompt, secret or other setting value can reach it.
 */
import type { ComfyNodeRule, Handlers } from '../../shared/contract.js';

type FactHandlers = Pick<Handlers, 'jobs.stats' | 'library.imports' | 'library.rereadStatus' | 'settings.get'>;

export interface LibraryFacts {
  jobs: number;
  images: number;
  /** Files brought in by every import so far. */
  imported: number;
  trashed: number;
  databaseBytes: number;
  mediaBytes: number;
  missingFiles: number;
  /** Imported files still to be read again by this version's readers. */
  rereadLeft: number;
  comfyNodeRules: ComfyNodeRule[];
}

export interface DiagnosticsFacts {
  app: { name: string; version: string; packaged: boolean };
  versions: { electron?: string | undefined; chrome?: string | undefined; node: string };
  os: { platform: string; release: string; arch: string };
  dataDir: string;
  logsDir: string;
  library: LibraryFacts;
}

/** Counts and sizes through the engine's own channels: the same numbers Settings shows. */
export async function libraryFacts(handlers: FactHandlers): Promise<LibraryFacts> {
  const stats = await handlers['jobs.stats']({});
  const { items } = await handlers['library.imports']({});
  const reread = await handlers['library.rereadStatus']({});
  const settings = await handlers['settings.get']({});
  return {
    jobs: stats.total,
    images: stats.images,
    imported: items.reduce((sum, item) => sum + item.imported, 0),
    trashed: stats.trashed,
    databaseBytes: stats.databaseBytes,
    mediaBytes: stats.mediaBytes,
    missingFiles: stats.missingFiles,
    rereadLeft: reread.left,
    comfyNodeRules: settings.library.comfyNodeRules ?? [],
  };
}

function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]} (${n} bytes)`;
}

/** The app, its runtimes and the OS, one a line (a crash report starts with these too). */
export function versionLines({ app, versions, os }: Pick<DiagnosticsFacts, 'app' | 'versions' | 'os'>): string[] {
  return [
    `${app.name} ${app.version}${app.packaged ? '' : ' (development)'}`,
    `Electron ${versions.electron ?? 'n/a'} · Chrome ${versions.chrome ?? 'n/a'} · Node ${versions.node}`,
    `OS ${os.platform} ${os.release} (${os.arch})`,
  ];
}

export function diagnosticsReport(facts: DiagnosticsFacts): string {
  const { library } = facts;
  return [
    ...versionLines(facts),
    `Data folder: ${facts.dataDir}`,
    `Logs folder: ${facts.logsDir}`,
    `Library: ${library.jobs} jobs, ${library.images} images, ${library.imported} imported, ${library.trashed} in the trash, ${library.missingFiles} files missing`,
    `Database: ${bytes(library.databaseBytes)}`,
    `Media: ${bytes(library.mediaBytes)}`,
    `Settings re-read: ${library.rereadLeft} imported files still to re-read`,
    `ComfyUI node rules: ${
      library.comfyNodeRules.length === 0
        ? 'none'
        : library.comfyNodeRules.map((r) => `${r.classType}.${r.input} → ${r.field}`).join('; ')
    }`,
  ].join('\n');
}

/** The report for this moment: the app's facts plus the library's counts. */
export async function collectDiagnostics(
  about: Omit<DiagnosticsFacts, 'library'>,
  handlers: FactHandlers,
): Promise<string> {
  return diagnosticsReport({ ...about, library: await libraryFacts(handlers) });
}
