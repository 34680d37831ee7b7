import type { Handlers } from '../../shared/contract.js';
import type { ExportDownload } from '../library/export/exporter.js';
import type { SecretBook } from '../providers/redact.js';
import type { Clock } from '../base/clock.js';
import type { Keyring } from '../base/keyring.js';
import type { Logger } from '../base/logger.js';
import type { EngineEvents } from '../base/events.js';

export type MediaKind = 'image' | 'thumb' | 'preview';

export interface MediaFile {
  /** Absolute path: inside the data dir, or for a linked original inside `root`. */
  path: string;
  mime: string;
  /** A linked original's allow-listed root (a folder the person imported): the file must resolve inside it. */
  root?: string;
  /** A linked original's recorded hash: other bytes are never served. */
  sha256?: string;
}

export interface Engine {
  readonly dataDir: string;
  readonly handlers: Handlers;
  readonly events: EngineEvents;
  /** Resolves an image id to its file under the data dir, or null (the hosts answer 404). */
  resolveMedia(kind: MediaKind, imageId: string): MediaFile | null;
  /** An export as a ZIP streamed from its originals (the headless host's download), or null for an unknown id. */
  exportDownload(id: string): ExportDownload | null;
  /** Stop taking work, give running jobs `graceMs`, then close the database cleanly. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface EngineOptions {
  dataDir: string;
  keyring: Keyring;
  clock?: Clock;
  log?: Logger;
  /** The book of decrypted secrets the log is redacted against; the app shares it with its own log. */
  secrets?: SecretBook;
  /** Overrides of provider base URLs etc. for tests; merged under stored settings. */
  providerDefaults?: Record<string, { baseUrl?: string }>;
  /** Path to an Electron build of better-sqlite3 (the app passes it; Node uses the default). */
  nativeBinding?: string;
}
