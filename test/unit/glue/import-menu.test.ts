import type { MenuItemConstructorOptions, OpenDialogOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { menuTemplate } from '../../../electron/glue/menu.js';
import { pickImportPaths } from '../../../electron/glue/pick-paths.js';

function fileMenu(isMac: boolean, importFolder: () => void): MenuItemConstructorOptions[] {
  const file = menuTemplate(isMac, 'Atelier', {
    importFolder,
    openLogsFolder: () => undefined,
    copyDiagnostics: () => undefined,
  }).find((m) => m.label === 'File');
  return file!.submenu as MenuItemConstructorOptions[];
}

describe('File → Import Folder…', () => {
  it.each([true, false])(
    'is the first File item (mac: %s), on Ctrl/Cmd+I, and asks the window to open the import dialog',
    (isMac) => {
      const importFolder = vi.fn();
      const [first] = fileMenu(isMac, importFolder);
      expect(first).toMatchObject({ label: 'Import Folder…', accelerator: 'CmdOrCtrl+I' });
      (first!.click as () => void)();
      expect(importFolder).toHaveBeenCalledTimes(1);
    },
  );
});

describe('the import picker', () => {
  it('offers folders and files, several at once, and returns what was chosen', async () => {
    let asked: OpenDialogOptions | undefined;
    const result = await pickImportPaths(async (options) => {
      asked = options;
      return { canceled: false, filePaths: ['/home/me/outputs', '/home/me/one.png'] };
    });
    expect(asked!.properties).toEqual(expect.arrayContaining(['openDirectory', 'openFile', 'multiSelections']));
    expect(result).toEqual({ paths: ['/home/me/outputs', '/home/me/one.png'] });
  });

  it('returns no paths when the picker is closed', async () => {
    expect(await pickImportPaths(async () => ({ canceled: true, filePaths: ['/ignored'] }))).toEqual({ paths: [] });
  });
});
