import type { CurationTarget } from '../store/types';
import { useApp, useAppStore } from '../store/context';

/** "Add to board…": a menu of the boards that hold images of their own (not smart boards); nothing without one. */
export function BoardPicker({
  label,
  target,
  className,
}: {
  label: string;
  target: () => CurationTarget;
  className?: string;
}) {
  const store = useAppStore();
  const boards = useApp((s) => s.boards);
  if (boards === null || !boards.some((b) => b.query === undefined)) return null;
  return (
    <select
      className={className}
      aria-label={label}
      value=""
      onChange={(e) => {
        if (e.target.value !== '') void store.getState().addToBoard(e.target.value, target());
      }}
    >
      <option value="">Add to board…</option>
      {boards
        .filter((b) => b.query === undefined)
        .map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
    </select>
  );
}
