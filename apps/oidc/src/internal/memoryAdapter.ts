import type { Adapter, AdapterPayload } from 'oidc-provider'

type Entry = { payload: AdapterPayload; expiresAt: number | undefined }

/**
 * A Map-backed oidc-provider adapter for one issuer: the state lives as long as the process
 * (which is what a dev provider wants) and `clear()` drops it on close.
 */
export function createMemoryAdapter(): {
  factory: (model: string) => Adapter
  clear(): void
} {
  const entries = new Map<string, Entry>()
  const key = (model: string, id: string) => `${model}:${id}`

  const read = (k: string | undefined): AdapterPayload | undefined => {
    if (k === undefined) return undefined
    const entry = entries.get(k)
    if (!entry) return undefined
    if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      entries.delete(k)
      return undefined
    }
    return entry.payload
  }

  const copy = (payload: AdapterPayload | undefined) =>
    payload === undefined ? undefined : structuredClone(payload)

  const factory = (model: string): Adapter => {
    const byUid = new Map<string, string>()
    const byUserCode = new Map<string, string>()
    return {
      async upsert(id, payload, expiresIn) {
        const k = key(model, id)
        entries.set(k, {
          payload: structuredClone(payload),
          expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined,
        })
        if (payload.uid) byUid.set(payload.uid, k)
        if (payload.userCode) byUserCode.set(payload.userCode, k)
      },
      async find(id) {
        return copy(read(key(model, id)))
      },
      async findByUid(uid) {
        return copy(read(byUid.get(uid)))
      },
      async findByUserCode(userCode) {
        return copy(read(byUserCode.get(userCode)))
      },
      async consume(id) {
        const payload = read(key(model, id))
        if (payload) payload.consumed = Math.floor(Date.now() / 1000)
      },
      async destroy(id) {
        entries.delete(key(model, id))
      },
      async revokeByGrantId(grantId) {
        for (const [k, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(k)
      },
    }
  }

  return { factory, clear: () => entries.clear() }
}
