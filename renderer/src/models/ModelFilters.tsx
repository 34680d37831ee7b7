import { useApp, useAppShallow } from '../store/context';
import { KIND_TABS, SORT_LABEL, type ModelSort } from './model-view';

/** The screen's search, kind tabs, base model and order; each change filters the loaded library at once. */
export function ModelFilters({ counts }: { counts: Record<string, number> }) {
  const filter = useApp((s) => s.modelFilter);
  const setFilter = useApp((s) => s.setModelFilter);
  const baseModels = useAppShallow((s) => s.modelLibrary?.baseModels ?? []);
  return (
    <div className="models-filters">
      <input
        type="search"
        className="models-search"
        aria-label="Search models"
        placeholder="Search name, base model, trigger words"
        value={filter.search}
        onChange={(e) => setFilter({ search: e.target.value })}
      />
      <div className="tabs" role="tablist" aria-label="Kind">
        {KIND_TABS.map((tab) => (
          <button
            key={tab.value}
            type="button"
            role="tab"
            aria-selected={filter.kind === tab.value}
            className={filter.kind === tab.value ? 'tab active' : 'tab'}
            onClick={() => setFilter({ kind: tab.value })}
          >
            {tab.label}
            <span className="count">{counts[tab.value] ?? 0}</span>
          </button>
        ))}
      </div>
      <label className="inline-field">
        Base
        <select value={filter.baseModel} onChange={(e) => setFilter({ baseModel: e.target.value })}>
          <option value="">Any</option>
          {/* A base chosen before the list changed stays choosable. */}
          {[...new Set([...baseModels, ...(filter.baseModel === '' ? [] : [filter.baseModel])])].map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        Sort
        <select value={filter.sort} onChange={(e) => setFilter({ sort: e.target.value as ModelSort })}>
          {(Object.keys(SORT_LABEL) as ModelSort[]).map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABEL[sort]}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
