/**
 * Where credentials live. Two implementations: the OS keychain (keytar) and an
 * encrypted file store used only when no keychain exists, which announces itself.
 * Never hearth.json, never logs.
 */
export interface SecretStore {
  /** e.g. 'keychain' | 'encrypted-file' */
  readonly backend: string;
  /** Set when the store is a fallback the user should know about. */
  readonly warning?: string;
  /**
   * Why the OS keychain is not used, when it is not: the detail alone (an environment setting or
   * the keychain's own error), so a client can word the rest in the person's language.
   */
  readonly fallbackReason?: string;
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  list(): Promise<string[]>;
}
