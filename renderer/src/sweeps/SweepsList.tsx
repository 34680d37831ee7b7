import { useEffect } from 'react';
import { useApp, useAppStore } from '../store/context';
import './sweeps.css';

/** The library column's sweeps, newest first, each opening its grid; nothing while there are none. */
export function SweepsList() {
  const store = useAppStore();
  const sweeps = useApp((s) => s.sweeps);
  useEffect(() => {
    if (store.getState().sweeps === null) void store.getState().loadSweeps();
  }, [store]);
  if (sweeps === null || sweeps.length === 0) return null;
  return (
    <section className="nav-section sweeps-list" aria-label="Sweeps">
      <header>
        <h2>Sweeps</h2>
      </header>
      <ul className="tag-list">
        {sweeps.map((sweep) => (
          <li key={sweep.id} className="tag-row">
            <button
              type="button"
              className="board-open"
              title={`Open the grid of ${sweep.name}`}
              aria-label={`Sweep ${sweep.name}, ${sweep.cellCount} cells`}
              onClick={() => void store.getState().openSweep(sweep.id)}
            >
              <span className="board-icon" aria-hidden="true">
                ▦
              </span>
              <span className="board-name">{sweep.name}</span>
              <span className="count">{sweep.failed > 0 ? `${sweep.failed} failed` : sweep.cellCount}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
