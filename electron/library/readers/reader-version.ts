/**
 * The version of the settings readers in this build. Each imported file records the version that read it; when
 * this number is higher, the library re-reads its files in the background (library/reread/rereader.ts). Raise it
 * whenever a reader would read some real file differently (a new format, a field it missed, a fix).
 */
export const READER_VERSION = 6;
