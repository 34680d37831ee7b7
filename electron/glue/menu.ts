import type { MenuItemConstructorOptions } from 'electron';
import type { HelpCommands } from '../desktop/help-commands.js';

/** Standard roles give every OS its expected shortcuts (copy/paste, zoom, full screen, quit) for free. */
export function menuTemplate(
  isMac: boolean,
  appName: string,
  commands: { importFolder(): void } & HelpCommands,
): MenuItemConstructorOptions[] {
  const template: MenuItemConstructorOptions[] = [];
  if (isMac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    {
      label: 'File',
      submenu: [
        { label: 'Import Folder…', accelerator: 'CmdOrCtrl+I', click: () => commands.importFolder() },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Open Logs Folder', click: () => commands.openLogsFolder() },
        { label: 'Copy Diagnostics', click: () => commands.copyDiagnostics() },
      ],
    },
  );
  return template;
}
