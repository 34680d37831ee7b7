import type { ChannelRequest, ExportSummary } from '../../../../shared/contract';
import type { Api } from '../../api';

/** Desktop: the OS folder picker, then the export into the folder chosen; null (nothing started) when it was closed. */
export async function exportToPickedFolder(
  api: Pick<Api, 'call'>,
  request: Omit<ChannelRequest<'export.start'>, 'folder'>,
): Promise<ExportSummary | null> {
  const { path } = await api.call('desktop.pickFolder', {});
  if (path === null) return null;
  return (await api.call('export.start', { ...request, folder: path })).export;
}
