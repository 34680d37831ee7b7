/** Where provider secrets live: Electron safeStorage in the app, an AES-GCM key file in the headless host. */
export interface Keyring {
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}
