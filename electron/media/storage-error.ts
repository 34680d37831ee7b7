/** The one disk-failure mapper lives with the store (SQLite and errno alike); media uses the same words. */
export { toStorageError, storageFaultOf } from '../base/storage-fault.js';

export const STORAGE_ERRNOS: readonly string[] = ['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'ENOENT', 'EIO'];
