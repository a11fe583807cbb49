import { base64UrlEncode, bytesToHex } from '../../src-main/protocol/device-auth.js';

/**
 * This browser's device identity (PROTOCOL.md §3): an Ed25519 key pair that never leaves
 * the device, its raw public key (base64url) and id (hex SHA-256 of the raw key).
 */
export interface DeviceIdentity {
  id: string;
  publicKey: string;
  /** base64url Ed25519 signature over the UTF-8 payload. */
  sign(payload: string): Promise<string>;
  /** Which implementation holds the key: WebCrypto (non-extractable) or the JS fallback. */
  kind: 'webcrypto' | 'noble';
}

/** What we keep between loads. A WebCrypto pair survives structured clone even though its private key is non-extractable. */
export type StoredDeviceKey = { kind: 'webcrypto'; pair: CryptoKeyPair } | { kind: 'noble'; secretKey: Uint8Array };

export interface DeviceKeyStore {
  load(): Promise<StoredDeviceKey | undefined>;
  save(key: StoredDeviceKey): Promise<void>;
}

type Subtle = Pick<SubtleCrypto, 'generateKey' | 'exportKey' | 'sign' | 'digest'>;

export interface DeviceIdentityDeps {
  store: DeviceKeyStore;
  /** `crypto.subtle`; undefined (or without Ed25519) → the @noble/curves fallback. */
  subtle?: Subtle;
}

const ED25519 = { name: 'Ed25519' } as const;

async function sha256Hex(subtle: Subtle | undefined, bytes: Uint8Array): Promise<string> {
  // crypto.subtle exists in every secure context; the page is served over https (or localhost) to pair.
  if (!subtle) throw new Error('this page needs a secure (https) connection to pair; open the link from the QR code');
  return bytesToHex(new Uint8Array(await subtle.digest('SHA-256', bytes as BufferSource)));
}

async function fromWebCrypto(subtle: Subtle, pair: CryptoKeyPair): Promise<DeviceIdentity> {
  const raw = new Uint8Array(await subtle.exportKey('raw', pair.publicKey));
  return {
    kind: 'webcrypto',
    id: await sha256Hex(subtle, raw),
    publicKey: base64UrlEncode(raw),
    async sign(payload) {
      const signature = await subtle.sign(ED25519, pair.privateKey, new TextEncoder().encode(payload));
      return base64UrlEncode(new Uint8Array(signature));
    },
  };
}

async function fromNoble(subtle: Subtle | undefined, secretKey: Uint8Array): Promise<DeviceIdentity> {
  const { ed25519 } = await import('@noble/curves/ed25519.js');
  const raw = ed25519.getPublicKey(secretKey);
  return {
    kind: 'noble',
    id: await sha256Hex(subtle, raw),
    publicKey: base64UrlEncode(raw),
    async sign(payload) {
      return base64UrlEncode(ed25519.sign(new TextEncoder().encode(payload), secretKey));
    },
  };
}

async function generateWebCrypto(subtle: Subtle): Promise<CryptoKeyPair | undefined> {
  try {
    const pair = (await subtle.generateKey(ED25519, false, ['sign', 'verify'])) as CryptoKeyPair;
    // Some engines generate the key but cannot sign with it; find out now, not at connect time.
    await subtle.sign(ED25519, pair.privateKey, new Uint8Array([1]));
    return pair;
  } catch {
    return undefined;
  }
}

/**
 * The device's key: the stored one when there is one (re-pairing keeps it, so the desktop
 * recognises the device), else a new WebCrypto Ed25519 pair, else a @noble/curves key.
 */
export async function loadOrCreateDeviceIdentity(deps: DeviceIdentityDeps): Promise<DeviceIdentity> {
  const stored = await deps.store.load();
  if (stored?.kind === 'webcrypto' && deps.subtle) return fromWebCrypto(deps.subtle, stored.pair);
  if (stored?.kind === 'noble') return fromNoble(deps.subtle, stored.secretKey);
  const pair = deps.subtle ? await generateWebCrypto(deps.subtle) : undefined;
  if (pair && deps.subtle) {
    await deps.store.save({ kind: 'webcrypto', pair });
    return fromWebCrypto(deps.subtle, pair);
  }
  const { ed25519 } = await import('@noble/curves/ed25519.js');
  const secretKey = ed25519.utils.randomSecretKey();
  await deps.store.save({ kind: 'noble', secretKey });
  return fromNoble(deps.subtle, secretKey);
}

/** A store in memory (tests, and browsers without IndexedDB: the key then lasts one page load). */
export function memoryKeyStore(initial?: StoredDeviceKey): DeviceKeyStore & { current?: StoredDeviceKey } {
  const store: DeviceKeyStore & { current?: StoredDeviceKey } = {
    current: initial,
    load: async () => store.current,
    save: async (key) => {
      store.current = key;
    },
  };
  return store;
}

const DB_NAME = 'hearth-device';
const STORE_NAME = 'keys';
const KEY_ID = 'device-key';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** The key in IndexedDB, where a non-extractable CryptoKey can be kept (localStorage only holds strings). */
export function indexedDbKeyStore(factory: IDBFactory): DeviceKeyStore {
  const open = () => {
    const req = factory.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE_NAME);
    return request(req);
  };
  return {
    async load() {
      const db = await open();
      try {
        const value = await request(db.transaction(STORE_NAME, 'readonly').objectStore(STORE_NAME).get(KEY_ID));
        return (value as StoredDeviceKey | undefined) ?? undefined;
      } finally {
        db.close();
      }
    },
    async save(key) {
      const db = await open();
      try {
        await request(db.transaction(STORE_NAME, 'readwrite').objectStore(STORE_NAME).put(key, KEY_ID));
      } finally {
        db.close();
      }
    },
  };
}
