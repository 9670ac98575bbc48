/**
 * The wallet origin's IndexedDB (partitioned per host site by the browser; first-party on a
 * project's custom wallet domain on the dapp's own site, issue 18): the device id and
 * the device share, the latter encrypted with a non-extractable AES-GCM key that also lives
 * in IndexedDB (the key object can be used, never read). When the browser gives this frame no
 * storage, everything falls back to memory for the page's lifetime.
 */

const DB_NAME = 'porthole-wallet'
const STORE = 'kv'

type Value = string | CryptoKey | StoredDeviceShare

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
export function getDeviceId(): Promise<string> {
  // Read once per frame (a sign-in asks for it on each step); a failure is asked again.
  deviceId ??= readDeviceId().catch((error: unknown) => {
    deviceId = undefined
    throw error
  })
  return deviceId
}

let deviceId: Promise<string> | undefined

async function readDeviceId(): Promise<string> {
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

/**
 * The device share as stored, with the addresses of the wallet it belongs to (public; a restore
 * names them before the key is rebuilt). Shares stored before the Solana address was kept lack it.
 */
export type DeviceShare = {
  setId: string
  address: string
  solanaAddress?: string
  share: Uint8Array<ArrayBuffer>
}

/** What the share's encryption authenticates besides the share: the set and the addresses. */
const boundTo = (value: { setId: string; address: string; solanaAddress?: string | undefined }) =>
  new TextEncoder().encode(
    `${value.setId}:${value.address}${value.solanaAddress ? `:${value.solanaAddress}` : ''}`,
  )

/**
 * Stores this device's share, encrypted under the non-extractable wrapping key.
 *
 * @example
 * await saveDeviceShare({ setId, address, share })
 */
export async function saveDeviceShare(value: DeviceShare): Promise<void> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: boundTo(value) },
    await wrappingKey(),
    value.share,
  )
  noteShare(value.address)
  await set('deviceShare', {
    setId: value.setId,
    address: value.address,
    ...(value.solanaAddress ? { solanaAddress: value.solanaAddress } : {}),
    iv,
    data,
  })
}

/** The device share's record as stored: its set and addresses readable, the share encrypted. */
export type StoredDeviceShare = {
  setId: string
  address: string
  solanaAddress?: string
  iv: Uint8Array<ArrayBuffer>
  data: ArrayBuffer
}

/**
 * This device's share record, still encrypted, or `undefined` when there is none: the wallet's
 * address is readable before the share is decrypted ({@link openDeviceShare} checks it).
 *
 * @example
 * const record = await readDeviceShare()
 */
export async function readDeviceShare(): Promise<StoredDeviceShare | undefined> {
  const stored = await get<StoredDeviceShare>('deviceShare')
  const found = !!stored && typeof stored === 'object' && 'data' in stored
  noteShare(found ? stored.address : undefined)
  return found ? stored : undefined
}

/** localStorage's note of the device share IndexedDB holds (see {@link shareNoted}). */
const SHARE_NOTE_KEY = 'porthole-wallet:deviceShare'

/**
 * The wallet address of the device share this origin's storage notes, or `undefined`: read at
 * once (IndexedDB takes a while to open), so a returning user's session check and the chain's
 * reads of the account can start before the share itself is read. Only a hint for requests that
 * need no trust: the share decides. Kept in step by every read, write and removal of the share.
 *
 * @example
 * if (shareNoted()) void fetch(me)
 */
export function shareNoted(): string | undefined {
  try {
    const noted = localStorage.getItem(SHARE_NOTE_KEY)
    return noted && /^0x[0-9a-fA-F]{40}$/.test(noted) ? noted : undefined
  } catch {
    return undefined
  }
}

function noteShare(address: string | undefined): void {
  try {
    if (address) localStorage.setItem(SHARE_NOTE_KEY, address)
    else localStorage.removeItem(SHARE_NOTE_KEY)
    // A restore note of another wallet (or of none), or a malformed one, no longer stands.
    if (!restoreNote()) noteRestore(undefined)
  } catch {
    // No storage here: the next load waits for IndexedDB before its session check.
  }
}

/** localStorage's note of the user the last sign-in or restore named (see {@link restoreNote}). */
const RESTORE_NOTE_KEY = 'porthole-wallet:restoreNote'

/**
 * What the last sign-in or restore on this device named, once its key was rebuilt: the API's id
 * of the user and the wallet's public accounts (no e-mail, nothing secret). A returning visitor's
 * early script announces them once the API confirms a session for the same user (early.ts); the
 * rebuilt key decides (main.ts ends the session when its addresses differ).
 */
export type RestoreNote = {
  userId: string
  user: {
    /** The active account (one of `accounts`, whose EOA is the device share's address). */
    address: string
    chainId: number
    accounts: { address: string; type: 'eoa' | 'smartAccount' }[]
    preferredAccountType: 'eoa' | 'smartAccount'
    smartAccountDeployed: boolean
    solanaAddress?: string
  }
}

const isAddress = (value: unknown): value is string =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)
const isType = (value: unknown): value is 'eoa' | 'smartAccount' =>
  value === 'eoa' || value === 'smartAccount'

/**
 * The restore note of this origin's storage, or `undefined` (none, malformed, or not the wallet
 * the device share note names).
 *
 * @example
 * const note = restoreNote() // { userId, user: { address, chainId, accounts, … } }
 */
export function restoreNote(): RestoreNote | undefined {
  try {
    const raw = localStorage.getItem(RESTORE_NOTE_KEY)
    if (!raw || raw.length > 4096) return undefined
    const { userId, user } = JSON.parse(raw) as { userId?: unknown; user?: Record<string, unknown> }
    if (typeof userId !== 'string' || !userId || userId.length > 128 || !user) return undefined
    const { address, chainId, accounts, preferredAccountType, smartAccountDeployed } = user
    const solanaAddress = user.solanaAddress
    const owner = shareNoted()
    if (
      !isAddress(address) ||
      !owner ||
      typeof chainId !== 'number' ||
      !Number.isSafeInteger(chainId) ||
      chainId <= 0 ||
      !Array.isArray(accounts) ||
      accounts.length < 1 ||
      accounts.length > 4 ||
      !accounts.every((a) => isAddress(a?.address) && isType(a?.type)) ||
      !accounts.some((a) => a.type === 'eoa' && a.address.toLowerCase() === owner.toLowerCase()) ||
      !accounts.some((a) => a.address.toLowerCase() === address.toLowerCase()) ||
      !isType(preferredAccountType) ||
      typeof smartAccountDeployed !== 'boolean' ||
      (solanaAddress !== undefined &&
        (typeof solanaAddress !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(solanaAddress)))
    )
      return undefined
    return {
      userId,
      user: notedUser({
        address,
        chainId,
        accounts,
        preferredAccountType,
        smartAccountDeployed,
        ...(solanaAddress ? { solanaAddress } : {}),
      }),
    }
  } catch {
    // No storage, or a note that is not JSON: no note, so the next load waits for its key.
    return undefined
  }
}

/**
 * The public fields of a user a restore note keeps (its accounts' address and type only; no
 * e-mail, nothing else the user object carries).
 *
 * @example
 * noteRestore({ userId, user: notedUser(user) })
 */
export function notedUser(user: {
  address: string
  chainId: number | string
  accounts: readonly { address: string; type: 'eoa' | 'smartAccount' }[]
  preferredAccountType: 'eoa' | 'smartAccount'
  smartAccountDeployed: boolean
  solanaAddress?: string | undefined
}): RestoreNote['user'] {
  return {
    address: user.address,
    chainId: Number(user.chainId),
    accounts: user.accounts.map(({ address, type }) => ({ address, type })),
    preferredAccountType: user.preferredAccountType,
    smartAccountDeployed: user.smartAccountDeployed,
    ...(user.solanaAddress ? { solanaAddress: user.solanaAddress } : {}),
  }
}

/**
 * Notes (or, with `undefined`, forgets) the user a sign-in or restore named once its key was
 * rebuilt, for the next load's early announcement ({@link restoreNote}).
 *
 * @example
 * noteRestore({ userId, user })
 */
export function noteRestore(note: RestoreNote | undefined): void {
  try {
    if (note) localStorage.setItem(RESTORE_NOTE_KEY, JSON.stringify(note))
    else localStorage.removeItem(RESTORE_NOTE_KEY)
  } catch {
    // No storage here: the next load names the user once its key is rebuilt, as before.
  }
}

/**
 * Decrypts a share record; `undefined` when it cannot be decrypted (a changed address or set
 * fails too: the addresses it returns are the ones stored with the share).
 *
 * @example
 * const local = await openDeviceShare(await readDeviceShare())
 */
export async function openDeviceShare(
  stored: StoredDeviceShare | undefined,
): Promise<DeviceShare | undefined> {
  if (!stored) return undefined
  try {
    const share = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: stored.iv, additionalData: boundTo(stored) },
      await wrappingKey(),
      stored.data,
    )
    return {
      setId: stored.setId,
      address: stored.address,
      ...(typeof stored.solanaAddress === 'string' ? { solanaAddress: stored.solanaAddress } : {}),
      share: new Uint8Array(share),
    }
  } catch {
    return undefined
  }
}

/**
 * Reads this device's share, or `undefined` when there is none (or it cannot be decrypted).
 *
 * @example
 * const local = await loadDeviceShare()
 */
export async function loadDeviceShare(): Promise<DeviceShare | undefined> {
  return openDeviceShare(await readDeviceShare())
}

/** Forgets the device share. */
export function clearDeviceShare(): Promise<void> {
  noteShare(undefined)
  return remove('deviceShare')
}
