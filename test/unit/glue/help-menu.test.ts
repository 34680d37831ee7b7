import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { helpCommands, type HelpDeps } from '../../../electron/desktop/help-commands.js';
import { menuTemplate } from '../../../electron/glue/menu.js';
import type { Logger } from '../../../electron/base/logger.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'atelier-help-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function setup(over: Partial<HelpDeps> = {}) {
  const shell = { openPath: vi.fn(async (_path: string) => '') };
  const clipboard = { writeText: vi.fn((_text: string) => undefined) };
  const warnings: string[] = [];
  const log: Logger = { info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) };
  const logsFolder = join(root, 'logs');
  const commands = helpCommands({
    logsFolder: () => logsFolder,
    openPath: (path) => shell.openPath(path),
    writeText: (text) => clipboard.writeText(text),
    diagnostics: async () => 'Atelier 1.2.3\nLibrary: 4 jobs',
    log,
    ...over,
  });
  return { shell, clipboard, warnings, logsFolder, commands };
}

function helpItems(isMac: boolean, commands: ReturnType<typeof helpCommands>): MenuItemConstructorOptions[] {
  const help = menuTemplate(isMac, 'Atelier', { importFolder: () => undefined, ...commands }).find(
    (m) => m.role === 'help',
  );
  return help!.submenu as MenuItemConstructorOptions[];
}

const click = (item: MenuItemConstructorOptions | undefined): void => (item!.click as () => void)();

describe('the Help menu', () => {
  it.each([true, false])('Open Logs Folder opens the logs folder in the file manager (mac: %s)', async (isMac) => {
    const { shell, logsFolder, commands } = setup();
    const items = helpItems(isMac, commands);
    expect(items.map((item) => item.label)).toEqual(['Open Logs Folder', 'Copy Diagnostics']);
    click(items[0]);
    await vi.waitFor(() => expect(shell.openPath).toHaveBeenCalledWith(logsFolder));
    expect(existsSync(logsFolder)).toBe(true);
  });

  it('Copy Diagnostics puts the report on the clipboard', async () => {
    const { clipboard, commands } = setup();
    click(helpItems(false, commands)[1]);
    await vi.waitFor(() => expect(clipboard.writeText).toHaveBeenCalledWith('Atelier 1.2.3\nLibrary: 4 jobs'));
  });

  it('logs, and copies nothing, when the report cannot be made or the folder cannot open', async () => {
    const { clipboard, warnings, commands } = setup({
      diagnostics: async () => {
        throw new Error('database busy');
      },
      openPath: async () => 'No application is associated with the folder',
    });
    click(helpItems(false, commands)[1]);
    click(helpItems(false, commands)[0]);
    await vi.waitFor(() =>
      expect(warnings.sort()).toEqual(['could not copy diagnostics', 'could not open the logs folder']),
    );
    expect(clipboard.writeText).not.toHaveBeenCalled();
  });
});
