import * as fsp from 'node:fs/promises';

/** The slice of node:fs/promises the media layer uses: injectable so tests can simulate disk full and friends. */
export interface MediaFileHandle {
  writeFile(data: Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface MediaStat {
  size: number;
  mtimeMs: number;
  isFile(): boolean;
  isDirectory(): boolean;
}

export interface MediaFs {
  open(path: string, flags: string, mode?: number): Promise<MediaFileHandle>;
  mkdir(path: string): Promise<unknown>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<MediaStat>;
  readdir(path: string): Promise<string[]>;
  rm(path: string, options: { recursive: boolean; force: boolean }): Promise<void>;
  realpath(path: string): Promise<string>;
}

export const nodeMediaFs: MediaFs = {
  open: (path, flags, mode) => fsp.open(path, flags, mode),
  mkdir: (path) => fsp.mkdir(path),
  rename: (from, to) => fsp.rename(from, to),
  unlink: (path) => fsp.unlink(path),
  stat: (path) => fsp.stat(path),
  readdir: (path) => fsp.readdir(path),
  rm: (path, options) => fsp.rm(path, options),
  realpath: (path) => fsp.realpath(path),
};

export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
