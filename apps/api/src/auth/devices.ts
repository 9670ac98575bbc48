/**
 * The devices of a user's wallet: each device id (a wallet frame's storage partition) that
 * created the wallet, received what a new device needs to recover it (the auth share and the
 * recovery ciphertext), or signed in with a Farcaster custody address the wallet does not know.
 * The API records them itself when it hands those out — a script that never reports a device is
 * listed all the same — so the user's other devices can show each new one and remove it. A
 * removed device's sessions end and it is refused the auth share from then on.
 */
import { createHash } from 'node:crypto'
import { getAddress } from 'viem'
import type { DbExecutor } from '../db/Db.js'
import { revokeSessions } from './sessions.js'

/**
 * How a device joined the list: it created the wallet, was listed when first seen (no notice),
 * received the recovery ciphertext (a recovery: announced), or signed in with another Farcaster
 * custody address and was refused the wallet (announced).
 */
export type DeviceKind = 'created' | 'known' | 'recovered' | 'custody-refused'

/** The kinds the user's other devices are told about. */
const NOTICE_KINDS: readonly DeviceKind[] = ['recovered', 'custody-refused']

/** A device as stored. */
export type DeviceRow = {
  user_id: string
  device_id: string
  project_id: string
  kind: DeviceKind
  site: string | null
  label: string
  ip: string
  custody: string | null
  created_at: number
  last_seen_at: number
  notices_seen_at: number
  revoked_at: number | null
}

/** A device as the list answers it. */
export type WalletDevice = {
  /** Its id in the list (a digest of the device id, which stays the frame's). */
  id: string
  kind: DeviceKind
  /** The site it signed in on, when known. */
  site: string | null
  /** Browser and system, from its User-Agent. */
  label: string
  /** The Farcaster custody address of its sign-in (checksummed), when it had one. */
  custody: string | null
  createdAt: number
  lastSeenAt: number
  /** The device asking. */
  current: boolean
  /** Joined since the device asking last showed its notices (recoveries and refusals only). */
  isNew: boolean
}

/**
 * A device's id in the list: the first 128 bits of the SHA-256 of its device id, base64url. The
 * device id itself is not shown to the user's other devices.
 *
 * @example
 * deviceRef('5f0c…') // 'q1X…' (22 characters)
 */
export function deviceRef(deviceId: string): string {
  return createHash('sha256').update(deviceId, 'utf8').digest('base64url').slice(0, 22)
}

/**
 * One device of a user, if listed.
 *
 * @example
 * const device = await findDevice(db, userId, session.deviceId)
 */
export async function findDevice(
  db: DbExecutor,
  userId: string,
  deviceId: string,
): Promise<DeviceRow | undefined> {
  const [row] = await db.query<DeviceRow>(
    'SELECT * FROM auth_wallet_devices WHERE user_id = ? AND device_id = ?',
    [userId, deviceId],
  )
  return row
}

/**
 * Whether the user has any listed device (a wallet of before the list has none).
 *
 * @example
 * if (!(await hasDevices(db, userId))) kind = 'known'
 */
export async function hasDevices(db: DbExecutor, userId: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM auth_wallet_devices WHERE user_id = ? LIMIT 1', [
    userId,
  ])
  return rows.length > 0
}

/** Options of {@link recordDevice}. */
export type RecordDeviceParameters = {
  projectId: string
  userId: string
  deviceId: string
  kind: DeviceKind
  site: string | null
  label: string
  ip: string
  custody?: string | null
}

/**
 * Lists a device (once: a listed device keeps its row); true when this call listed it.
 *
 * @example
 * await recordDevice(db, { projectId, userId, deviceId, kind: 'recovered', site, label, ip })
 */
export async function recordDevice(
  db: DbExecutor,
  parameters: RecordDeviceParameters,
): Promise<boolean> {
  const now = Date.now()
  const { rowsAffected } = await db.execute(
    `INSERT INTO auth_wallet_devices
       (user_id, device_id, project_id, kind, site, label, ip, custody, created_at, last_seen_at,
        notices_seen_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, device_id) DO NOTHING`,
    [
      parameters.userId,
      parameters.deviceId,
      parameters.projectId,
      parameters.kind,
      parameters.site,
      parameters.label.slice(0, 100),
      parameters.ip.slice(0, 64),
      parameters.custody ?? null,
      now,
      now,
      now,
    ],
  )
  return rowsAffected === 1
}

/**
 * Records a listed device's use now (and its site, when it had none).
 *
 * @example
 * await touchDevice(db, userId, deviceId, 'https://app.example')
 */
export async function touchDevice(
  db: DbExecutor,
  userId: string,
  deviceId: string,
  site: string | null = null,
): Promise<void> {
  await db.execute(
    `UPDATE auth_wallet_devices SET last_seen_at = ?, site = COALESCE(site, ?)
     WHERE user_id = ? AND device_id = ?`,
    [Date.now(), site, userId, deviceId],
  )
}

/**
 * The user's devices not removed, newest first, as `currentDeviceId` sees them.
 *
 * @example
 * const devices = await listDevices(db, userId, session.deviceId)
 */
export async function listDevices(
  db: DbExecutor,
  userId: string,
  currentDeviceId: string,
): Promise<WalletDevice[]> {
  const rows = await db.query<DeviceRow>(
    `SELECT * FROM auth_wallet_devices WHERE user_id = ? AND revoked_at IS NULL
     ORDER BY created_at DESC LIMIT 100`,
    [userId],
  )
  const seen = Number(rows.find((row) => row.device_id === currentDeviceId)?.notices_seen_at ?? 0)
  return rows.map((row) => ({
    id: deviceRef(row.device_id),
    kind: row.kind,
    site: row.site,
    label: row.label,
    custody: row.custody ? getAddress(row.custody) : null,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    current: row.device_id === currentDeviceId,
    isNew:
      row.device_id !== currentDeviceId &&
      NOTICE_KINDS.includes(row.kind) &&
      Number(row.created_at) > seen,
  }))
}

/**
 * Marks the notices shown on a device: devices that joined until now are no longer new to it.
 *
 * @example
 * await markNoticesSeen(db, userId, session.deviceId)
 */
export async function markNoticesSeen(
  db: DbExecutor,
  userId: string,
  deviceId: string,
): Promise<void> {
  await db.execute(
    'UPDATE auth_wallet_devices SET notices_seen_at = ? WHERE user_id = ? AND device_id = ?',
    [Date.now(), userId, deviceId],
  )
}

/**
 * Removes a device by its list id: marked revoked (it is refused the auth share from now on) and
 * every session of it deleted. The device id removed, or undefined when the list has no such
 * device.
 *
 * @example
 * const removed = await revokeDevice(tx, { projectId, userId, ref })
 */
export async function revokeDevice(
  db: DbExecutor,
  { projectId, userId, ref }: { projectId: string; userId: string; ref: string },
): Promise<string | undefined> {
  const rows = await db.query<{ device_id: string }>(
    'SELECT device_id FROM auth_wallet_devices WHERE user_id = ? AND revoked_at IS NULL',
    [userId],
  )
  const deviceId = rows.find((row) => deviceRef(row.device_id) === ref)?.device_id
  if (!deviceId) return undefined
  await db.execute(
    'UPDATE auth_wallet_devices SET revoked_at = ? WHERE user_id = ? AND device_id = ?',
    [Date.now(), userId, deviceId],
  )
  await revokeSessions(db, { projectId, userId, deviceId })
  return deviceId
}
