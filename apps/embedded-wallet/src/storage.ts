/**
 * The wallet origin's IndexedDB (partitioned per host site by the browser; first-party on a
 * project's custom wallet domain on the dapp's own site, issue 18): the device id and
 * the device share, the latter encrypted with a non-extractable AES-GCM key that also lives
 * in IndexedDB (the key object can be used, never read). When the browser gives this frame no
 * storage, everything falls back to memory for the page's lifetime.
 */

const DB_NAME = 'porthole-wallet'
const STORE = 'kv'

type Value =
  | string
  | CryptoKey
  | { setId: string; address: string; iv: Uint8Array<ArrayBuffer>; data: ArrayBuffer }

const memory = new Map<string, Value>()
let database: Promise<IDBDatabase | undefined> | undefined

function open(): Promise<IDBDatabase | undefined> {
  database ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open(DB_NAME, 1)
      request.onupgradeneeded = () => request.result.createObjectStore(STORE)
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => resolve(undefined)
      request.onblocked = () => resolve(undefined)
    } catch {
      resolve(undefined)
    }
  })
  return database
}

async function get<T extends Value>(key: string): Promise<T | undefined> {
  const db = await open()
  if (!db) return memory.get(key) as T | undefined
  return new Promise((resolve) => {
    const request = db.transaction(STORE).objectStore(STORE).get(key)
    request.onsuccess = () => resolve(request.result as T | undefined)
    request.onerror = () => resolve(undefined)
  })
}

async function set(key: string, value: Value): Promise<void> {
  const db = await open()
  if (!db) {
    memory.set(key, value)
    return
  }
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(STORE, 'readwrite')
    tx.objectStore(STORE).put(value, key)
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error)
  })
}

async function remove(key: string): Promise<void> {
  const db = await open()
  if (!db) {
    memory.delete(key)
    return
  }
  await new Promise<void>((resolve) => {
    const tx = db.transaction(STORE, 'readwrite')
    tx.objectStore(STORE).delete(key)
    tx.oncomplete = () => resolve()
    tx.onerror = () => resolve()
  })
}

/**
 * This device's id (random, created once per storage partition: a new host site is a new
 * device).
 *
 * @example
 * const deviceId = await getDeviceId()
 */
export async function getDeviceId(): Promise<string> {
  const existing = await get<string>('deviceId')
  if (typeof existing === 'string') return existing
  const id = crypto.randomUUID()
  await set('deviceId', id)
  return id
}

async function wrappingKey(): Promise<CryptoKey> {
  const existing = await get<CryptoKey>('wrapKey')
  if (existing instanceof CryptoKey) return existing
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ])
  await set('wrapKey', key)
  return key
}

/** The device share as stored. */
export type DeviceShare = { setId: string; address: string; share: Uint8Array<ArrayBuffer> }

/**
 * Stores this device's share, encrypted under the non-extractable wrapping key.
 *
 * @example
 * await saveDeviceShare({ setId, address, share })
 */
export async function saveDeviceShare(value: DeviceShare): Promise<void> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const data = await crypto.subtle.encrypt(
    {
      name: 'AES-GCM',
      iv,
      additionalData: new TextEncoder().encode(`${value.setId}:${value.address}`),
    },
    await wrappingKey(),
    value.share,
  )
  await set('deviceShare', { setId: value.setId, address: value.address, iv, data })
}

/**
 * Reads this device's share, or `undefined` when there is none (or it cannot be decrypted).
 *
 * @example
 * const local = await loadDeviceShare()
 */
export async function loadDeviceShare(): Promise<DeviceShare | undefined> {
  const stored = await get<{
    setId: string
    address: string
    iv: Uint8Array<ArrayBuffer>
    data: ArrayBuffer
  }>('deviceShare')
  if (!stored || typeof stored !== 'object' || !('data' in stored)) return undefined
  try {
    const share = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: stored.iv,
        additionalData: new TextEncoder().encode(`${stored.setId}:${stored.address}`),
      },
      await wrappingKey(),
      stored.data,
    )
    return { setId: stored.setId, address: stored.address, share: new Uint8Array(share) }
  } catch {
    return undefined
  }
}

/** Forgets the device share. */
export function clearDeviceShare(): Promise<void> {
  return remove('deviceShare')
}
