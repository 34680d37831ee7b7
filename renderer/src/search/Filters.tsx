import { useCallback, useEffect, useRef, useState } from 'react';
import type { ImageSource, JobStatus, Sort } from '../../../shared/contract';
import { formatNumber } from '../common/format';
import { openDuplicates } from './similar-view';
import { useSourceOptions } from '../library/import/use-source-options';
import { useApp } from '../store/context';
import { countsKeyOf, type View } from '../store/filters';
import { THUMB_SIZES } from '../gallery/grid-layout';
import { LayoutToggle } from '../gallery/LayoutToggle';
import { useOutsideClose } from '../common/use-outside-close';
import { activeFilterCount } from '../app/panels';

const VIEWS: { id: View; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'favorites', label: 'Favorites' },
  { id: 'trash', label: 'Trash' },
];

const STATUS_CHOICES: { value: string; label: string; statuses: JobStatus[] }[] = [
  { value: '', label: 'Any status', statuses: [] },
  { value: 'succeeded', label: 'Succeeded', statuses: ['succeeded'] },
  { value: 'failed', label: 'Failed', statuses: ['failed'] },
  { value: 'cancelled', label: 'Cancelled', statuses: ['cancelled'] },
  { value: 'interrupted', label: 'Interrupted', statuses: ['interrupted'] },
  { value: 'active', label: 'Queued or running', statuses: ['queued', 'running'] },
  // Failed, cancelled and interrupted cards out of the way, for a wall of pictures only.
  { value: 'no-failures', label: 'Hide failures', statuses: ['succeeded', 'queued', 'running'] },
];

const SORT_LABELS: Record<Sort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  rating: 'Highest rated',
  random: 'Random',
};

/** A new shuffle each time Random is picked; the same one while the person scrolls. */
function newShuffle(): number {
  return Math.floor(Math.random() * 2_147_483_647);
}

/** The toolbar's part: the view tabs, a Filters button whose popover holds the drop-downs, and Grid | List with the size. */
export function Filters() {
  const filters = useApp((s) => s.filters);
  const setFilters = useApp((s) => s.setFilters);
  const matchCounts = useApp((s) => s.counts);
  const stale = useApp((s) => s.countsKey !== countsKeyOf(s.filters));
  const thumbSize = useApp((s) => s.thumbSize);
  const setThumbSize = useApp((s) => s.setThumbSize);
  const layout = useApp((s) => s.layout);
  const setLayout = useApp((s) => s.setLayout);
  // Images that match, once the engine has answered: the library's totals count jobs, so no number until then.
  const counts: Record<View, number | undefined> =
    matchCounts !== null
      ? { all: matchCounts.active, favorites: matchCounts.favorites, trash: matchCounts.trash }
      : { all: undefined, favorites: undefined, trash: undefined };

  return (
    <nav className="filters" aria-label="Filters">
      <div className="tabs" role="tablist" aria-label="View">
        {VIEWS.map((v) => (
          <button
            key={v.id}
            type="button"
            role="tab"
            aria-selected={filters.view === v.id}
            className={filters.view === v.id ? 'tab active' : 'tab'}
            onClick={() => setFilters({ view: v.id })}
          >
            {v.label}
            {counts[v.id] === undefined ? null : (
              <span className={stale && matchCounts !== null ? 'count stale' : 'count'}>
                {formatNumber(counts[v.id]!)}
                {matchCounts?.capped.includes(v.id === 'all' ? 'active' : v.id) === true ? '+' : ''}
              </span>
            )}
          </button>
        ))}
      </div>
      <FiltersMenu />
      {/* Grid | List and the size stay side by side when the bar wraps. */}
      <div className="view-controls">
        <LayoutToggle layout={layout} onChange={setLayout} />
        {/* The size is the grid's: kept in place in the list, so nothing moves when the person switches. */}
        <label
          className="inline-field thumb-size"
          title={
            layout === 'grid'
              ? 'Thumbnail size: dense to large (Ctrl/Cmd + and −)'
              : 'Thumbnail size applies to the grid'
          }
        >
          <span className="thumb-size-label">Thumbnails</span>
          <input
            type="range"
            aria-label="Thumbnails"
            disabled={layout !== 'grid'}
            min={THUMB_SIZES.min}
            max={THUMB_SIZES.max}
            step={THUMB_SIZES.step}
            value={thumbSize}
            onChange={(e) => setThumbSize(Number(e.target.value))}
          />
        </label>
      </div>
    </nav>
  );
}

/** "Filters" with a count of what narrows the view; its popover holds status, provider, source, sort and the rest. */
function FiltersMenu() {
  const filters = useApp((s) => s.filters);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useOutsideClose(open, root, close);
  // Escape closes it wherever the keyboard is (inside it, the handler below also gives the focus back to the button).
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);
  const active = activeFilterCount(filters);
  return (
    <div
      className="filters-menu"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          root.current?.querySelector<HTMLButtonElement>('.filters-button')?.focus();
        }
      }}
    >
      <button
        type="button"
        className={active > 0 ? 'btn ghost filters-button on' : 'btn ghost filters-button'}
        aria-expanded={open}
        aria-controls="filters-popover"
        aria-label={active > 0 ? `Filters, ${active} on` : 'Filters'}
        title="Status, provider, source, sort and more"
        onClick={() => setOpen(!open)}
      >
        Filters
        {active > 0 ? (
          <span className="filters-badge" aria-hidden="true">
            {active}
          </span>
        ) : null}
        <span aria-hidden="true">▾</span>
      </button>
      {open ? <FilterFields close={close} /> : null}
    </div>
  );
}

function FilterFields({ close }: { close(): void }) {
  const filters = useApp((s) => s.filters);
  const setFilters = useApp((s) => s.setFilters);
  const providers = useApp((s) => s.providers);
  const stats = useApp((s) => s.stats);
  const autoAdvance = useApp((s) => s.autoAdvance);
  const setAutoAdvance = useApp((s) => s.setAutoAdvance);
  const sourceOptions = useSourceOptions(filters.source);
  const statusValue = STATUS_CHOICES.find((c) => c.statuses.join() === filters.status.join())?.value ?? '';
  return (
    <div className="filters-popover" id="filters-popover" role="group" aria-label="Filter and sort">
      <label className="inline-field">
        <span>Status</span>
        <select
          aria-label="Status filter"
          value={statusValue}
          onChange={(e) =>
            setFilters({ status: STATUS_CHOICES.find((c) => c.value === e.target.value)?.statuses ?? [] })
          }
        >
          {STATUS_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
              {c.statuses.length === 1 && stats?.byStatus[c.statuses[0]!] !== undefined
                ? ` (${stats.byStatus[c.statuses[0]!]})`
                : ''}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>Provider</span>
        <select
          aria-label="Provider filter"
          value={filters.provider ?? ''}
          onChange={(e) => setFilters({ provider: e.target.value === '' ? null : e.target.value })}
        >
          <option value="">Any provider</option>
          {providers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>Source</span>
        <select
          aria-label="Source filter"
          value={filters.source ?? ''}
          onChange={(e) => setFilters({ source: e.target.value === '' ? null : (e.target.value as ImageSource) })}
        >
          <option value="">All sources</option>
          {sourceOptions.map(({ source, label }) => (
            <option key={source} value={source}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>Sort</span>
        <select
          aria-label="Sort"
          value={filters.sort}
          onChange={(e) => {
            const sort = e.target.value as Sort;
            setFilters(sort === 'random' ? { sort, shuffle: newShuffle() } : { sort });
          }}
        >
          {(Object.keys(SORT_LABELS) as Sort[]).map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </label>
      {filters.sort === 'random' ? (
        <button
          type="button"
          className="btn small ghost"
          title="Another random order"
          onClick={() => setFilters({ shuffle: newShuffle() })}
        >
          Shuffle again
        </button>
      ) : null}
      <label className="inline-field check" title="After a rating key (0–5), the focus moves on to the next image">
        <input type="checkbox" checked={autoAdvance} onChange={(e) => setAutoAdvance(e.target.checked)} />
        <span>Next after rating</span>
      </label>
      <button
        type="button"
        className="btn ghost small"
        onClick={() => {
          close();
          openDuplicates();
        }}
        title="Copies of the same picture: exact, resized or re-encoded"
      >
        Show duplicates
      </button>
    </div>
  );
}
