import { useEffect, useState, type DragEvent } from 'react';
import type { Board } from '../../../shared/contract';
import { formatTerm } from '../../../shared/query';
import { carriesImages, draggedImages } from './drag-images';
import { carriesOwnFiles, sortDroppedFiles } from '../library/export/drag-out';
import { formatNumber } from '../common/format';
import { useApi, useApp, useAppStore } from '../store/context';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { NameField } from './NameField';

/** What showing a board puts in the search box: a board's own images, or a smart board's saved query. */
export function boardSearch(board: Pick<Board, 'name' | 'query'>): string {
  return board.query ?? formatTerm({ kind: 'text', key: 'board', text: board.name });
}

function BoardRow({ board, active }: { board: Board; active: boolean }) {
  const api = useApi();
  const store = useAppStore();
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [over, setOver] = useState(false);
  const smart = board.query !== undefined;
  // A smart board is a query: images join it by matching, not by a drop.
  const accepts = (e: DragEvent) => !smart && (carriesImages(e.dataTransfer) || carriesOwnFiles(e.dataTransfer));
  if (renaming) {
    return (
      <li>
        <NameField
          label={`Rename board ${board.name}`}
          initial={board.name}
          onDone={(name) => {
            setRenaming(false);
            if (name !== null && name !== board.name) void store.getState().renameBoard(board.id, name);
          }}
        />
      </li>
    );
  }
  return (
    <li
      className={`board${active ? ' active' : ''}${over ? ' drop' : ''}`}
      onDragOver={(e) => {
        if (!accepts(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        if (!accepts(e)) return;
        e.preventDefault();
        const state = store.getState();
        if (carriesImages(e.dataTransfer)) {
          const imageIds = draggedImages(e.dataTransfer);
          if (imageIds.length > 0) void state.addToBoard(board.id, { images: { imageIds, jobIds: [] } });
          return;
        }
        // The desktop's OS drag-out comes back as files: main tells which are its own originals.
        void sortDroppedFiles(api, Array.from(e.dataTransfer.files)).then(({ imageIds, foreign }) => {
          if (imageIds.length > 0) void state.addToBoard(board.id, { images: { imageIds, jobIds: [] } });
          if (foreign.length > 0) state.openImportDialog({ paths: foreign });
        }, state.reportError);
      }}
    >
      <button
        type="button"
        className="board-open"
        aria-pressed={active}
        aria-label={`${smart ? 'Smart board' : 'Board'} ${board.name}, ${board.count} image${board.count === 1 ? '' : 's'}`}
        title={smart ? `Smart board: ${board.query}` : 'Show this board (drop images here to add them)'}
        onClick={() => void store.getState().setSearch(active ? '' : boardSearch(board))}
      >
        <span className="board-icon" aria-hidden="true">
          {smart ? '⚡' : '▦'}
        </span>
        <span className="board-name">{board.name}</span>
        <span className="count">{formatNumber(board.count)}</span>
      </button>
      <span className="board-tools">
        <button
          type="button"
          className="icon"
          aria-label={`Rename board ${board.name}`}
          title="Rename"
          onClick={() => setRenaming(true)}
        >
          ✎
        </button>
        <button
          type="button"
          className="icon"
          aria-label={`Delete board ${board.name}`}
          title="Delete board"
          onClick={() => setConfirming(true)}
        >
          ×
        </button>
      </span>
      {confirming ? (
        <ConfirmDialog
          title={`Delete the board “${board.name}”?`}
          confirmLabel="Delete board"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            if (active) void store.getState().setSearch('');
            void store.getState().deleteBoard(board.id);
          }}
        >
          <p>
            {smart
              ? 'Only the saved search goes; no image changes.'
              : `Its ${formatNumber(board.count)} image${board.count === 1 ? '' : 's'} stay in your library and on any other board.`}
          </p>
        </ConfirmDialog>
      ) : null}
    </li>
  );
}

/** The boards with their counts: show one, drop images on one, make one, or save the current search as a smart board. */
export function BoardsList() {
  const store = useAppStore();
  const boards = useApp((s) => s.boards);
  const search = useApp((s) => s.filters.search.trim());
  const [creating, setCreating] = useState<'board' | 'smart' | null>(null);
  useEffect(() => {
    if (store.getState().boards === null) void store.getState().loadBoards();
  }, [store]);
  const sorted = [...(boards ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section className="nav-section" aria-label="Boards">
      <header>
        <h2>Boards</h2>
        <button
          type="button"
          className="icon"
          aria-label="New board"
          title="New board"
          onClick={() => setCreating('board')}
        >
          +
        </button>
      </header>
      <ul className="board-list">
        {sorted.map((board) => (
          <BoardRow key={board.id} board={board} active={search !== '' && search === boardSearch(board)} />
        ))}
        {creating === null ? null : (
          <li>
            <NameField
              label={creating === 'smart' ? 'Smart board name' : 'Board name'}
              initial=""
              onDone={(name) => {
                const kind = creating;
                setCreating(null);
                if (name !== null) void store.getState().createBoard(name, kind === 'smart' ? search : undefined);
              }}
            />
          </li>
        )}
      </ul>
      {boards !== null && boards.length === 0 && creating === null ? (
        <p className="muted small">Drag images onto a board to gather them.</p>
      ) : null}
      <button
        type="button"
        className="btn small ghost save-smart-board"
        disabled={search === '' || (boards ?? []).some((b) => b.query === search)}
        title={
          search === '' ? 'Search for something first' : `Save “${search}” as a board that always shows what matches`
        }
        onClick={() => setCreating('smart')}
      >
        Save search as smart board
      </button>
    </section>
  );
}
