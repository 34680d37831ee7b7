import { nodeMediaFs, type MediaFs } from '../../../electron/media/media-fs.js';

export function errnoError(code: string): NodeJS.ErrnoException {
  const error = new Error(`${code}: simulated`) as NodeJS.ErrnoException;
  error.code = code;
  return error;
}

export interface FaultFs extends MediaFs {
  opened: string[];
  unlinked: string[];
}

/** The real file system with one operation made to fail, to simulate disk full, permissions and friends. */
export function faultFs(fault: { op: 'write' | 'sync' | 'rename' | 'mkdir' | 'open'; code: string }): FaultFs {
  const fs: FaultFs = {
    ...nodeMediaFs,
    opened: [],
    unlinked: [],
    async open(path, flags, mode) {
      if (fault.op === 'open') throw errnoError(fault.code);
      fs.opened.push(path);
      const handle = await nodeMediaFs.open(path, flags, mode);
      return {
        writeFile: async (data) => {
          if (fault.op === 'write') {
            // A full disk accepts part of the data, then refuses the rest.
            await handle.writeFile(data.subarray(0, Math.floor(data.length / 2)));
            throw errnoError(fault.code);
          }
          return handle.writeFile(data);
        },
        sync: async () => {
          if (fault.op === 'sync') throw errnoError(fault.code);
          return handle.sync();
        },
        close: () => handle.close(),
      };
    },
    async mkdir(path) {
      if (fault.op === 'mkdir') throw errnoError(fault.code);
      return nodeMediaFs.mkdir(path);
    },
    async rename(from, to) {
      if (fault.op === 'rename') throw errnoError(fault.code);
      return nodeMediaFs.rename(from, to);
    },
    async unlink(path) {
      fs.unlinked.push(path);
      return nodeMediaFs.unlink(path);
    },
  };
  return fs;
}
