/**
 * E-mail device approvals, kept in memory (one service instance; several would share this in a
 * database or Redis). An approval names the project, the e-mail, the host site and the device
 * key; its link token is mailed to the owner and stored only as a hash; its id stays with the
 * wallet frame, which polls it and signs the decrypt with the device key.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { DevicePublicKey } from './proof.js'

/** An approval link works for 15 minutes. */
export const APPROVAL_TTL_MS = 15 * 60 * 1000
/** One approval mail per project and e-mail every 30 s (spec §5's e-mail cooldown). */
export const APPROVAL_COOLDOWN_MS = 30 * 1000

/** Where an approval stands. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'used'

/** An approval as stored. */
export type Approval = {
  id: string
  projectId: string
  email: string
  site: string
  device: string
  ip: string
  devicePublicKey: DevicePublicKey
  createdAt: number
  expiresAt: number
  decision: 'approved' | 'denied' | null
  used: boolean
}

const hash = (token: string) => createHash('sha256').update(token).digest('base64url')
const random = () => randomBytes(32).toString('base64url')

/**
 * The approval store.
 *
 * @example
 * const approvals = createApprovals()
 * const { approval, token } = approvals.create({ projectId, email, site, device, ip, devicePublicKey })
 */
export function createApprovals(now: () => number = Date.now) {
  const byId = new Map<string, Approval>()
  const byToken = new Map<string, string>()
  const lastSent = new Map<string, number>()
  const sweep = () => {
    const time = now()
    for (const [id, approval] of byId)
      if (approval.expiresAt + APPROVAL_TTL_MS < time) byId.delete(id)
    for (const [token, id] of byToken) if (!byId.has(id)) byToken.delete(token)
    for (const [key, at] of lastSent) if (at + APPROVAL_COOLDOWN_MS < time) lastSent.delete(key)
  }
  const statusOf = (approval: Approval): ApprovalStatus => {
    if (approval.used) return 'used'
    if (approval.decision === 'denied') return 'denied'
    if (approval.expiresAt <= now()) return 'expired'
    return approval.decision ?? 'pending'
  }
  return {
    /** Seconds until another approval mail may go to this e-mail, or 0. */
    cooldown(projectId: string, email: string): number {
      const at = lastSent.get(`${projectId}\n${email}`)
      const left = at === undefined ? 0 : at + APPROVAL_COOLDOWN_MS - now()
      return left > 0 ? Math.ceil(left / 1000) : 0
    },
    create(fields: Omit<Approval, 'id' | 'createdAt' | 'expiresAt' | 'decision' | 'used'>): {
      approval: Approval
      token: string
    } {
      sweep()
      const time = now()
      const approval: Approval = {
        ...fields,
        id: random(),
        createdAt: time,
        expiresAt: time + APPROVAL_TTL_MS,
        decision: null,
        used: false,
      }
      const token = random()
      byId.set(approval.id, approval)
      byToken.set(hash(token), approval.id)
      lastSent.set(`${fields.projectId}\n${fields.email}`, time)
      return { approval, token }
    },
    /** Forgets an approval whose mail could not be sent (and its cooldown). */
    discard(approval: Approval): void {
      byId.delete(approval.id)
      lastSent.delete(`${approval.projectId}\n${approval.email}`)
    },
    /** The pending approval of a link token, or null (unknown, expired, decided). */
    pendingByToken(token: string): Approval | null {
      const id = byToken.get(hash(token))
      const approval = id ? byId.get(id) : undefined
      return approval && statusOf(approval) === 'pending' ? approval : null
    },
    /** Records the owner's decision on a pending approval; false when it is not pending. */
    decide(token: string, decision: 'approved' | 'denied'): Approval | null {
      const approval = this.pendingByToken(token)
      if (!approval) return null
      approval.decision = decision
      byToken.delete(hash(token))
      return approval
    },
    status(id: string): { approval: Approval; status: ApprovalStatus } | null {
      const approval = byId.get(id)
      return approval ? { approval, status: statusOf(approval) } : null
    },
    /** Uses up an approved approval (one decrypt). */
    use(approval: Approval): boolean {
      if (statusOf(approval) !== 'approved') return false
      approval.used = true
      return true
    },
  }
}

/** The approval store's type. */
export type Approvals = ReturnType<typeof createApprovals>
