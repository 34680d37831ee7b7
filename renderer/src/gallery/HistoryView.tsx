import { useApp } from '../store/context';
import { HistoryGrid } from './HistoryGrid';
import { HistoryList } from './HistoryList';

/** The history as the person chose to see it (Grid or List beside the filters). */
export function HistoryView() {
  const layout = useApp((s) => s.layout);
  return layout === 'list' ? <HistoryList /> : <HistoryGrid />;
}
