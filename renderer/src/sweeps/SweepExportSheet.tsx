import { useState } from 'react';
import { useApi, useAppStore } from '../store/context';

/** Export sheet (PNG): the page as one labelled picture; the browser downloads it, the desktop app asks for a folder. */
export function SweepExportSheet({ id, page }: { id: string; page: number }) {
  const api = useApi();
  const store = useAppStore();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      if (api.host === 'desktop') {
        const { path } = await api.call('desktop.pickFolder', {});
        if (path === null) return;
        const sheet = await api.call('sweeps.sheet', { id, z: page, folder: path });
        store.getState().toast({ kind: 'info', message: `Sheet saved: ${sheet.path ?? path}` });
        return;
      }
      const sheet = await api.call('sweeps.sheet', { id, z: page });
      if (sheet.download === undefined) return;
      const link = document.createElement('a');
      link.href = sheet.download;
      link.download = '';
      link.click();
    } catch (error) {
      store.getState().reportError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn small" aria-busy={busy} disabled={busy} onClick={() => void run()}>
      Export sheet (PNG)
    </button>
  );
}
