import { mkdir } from 'node:fs/promises';
import type { Logger } from '../base/logger.js';

export interface HelpCommands {
  openLogsFolder(): void;
  copyDiagnostics(): void;
}

export interface HelpDeps {
  logsFolder(): string;
  /** shell.openPath: resolves to an error message, or '' when the folder opened. */
  openPath(path: string): Promise<string>;
  /** clipboard.writeText */
  writeText(text: string): void;
  diagnostics(): Promise<string>;
  log: Logger;
}

/** Help → Open logs folder and Copy diagnostics; a failure is logged, never thrown out of a menu click. */
export function helpCommands(deps: HelpDeps): HelpCommands {
  return {
    openLogsFolder() {
      const folder = deps.logsFolder();
      // The folder exists once anything was logged; made here too so the first click never opens nothing.
      void mkdir(folder, { recursive: true })
        .then(() => deps.openPath(folder))
        .then((problem) => {
          if (problem !== '') deps.log.warn('could not open the logs folder', { problem });
        })
        .catch((error: unknown) => deps.log.warn('could not open the logs folder', { error: String(error) }));
    },
    copyDiagnostics() {
      void deps
        .diagnostics()
        .then((text) => deps.writeText(text))
        .catch((error: unknown) => deps.log.error('could not copy diagnostics', { error: String(error) }));
    },
  };
}
