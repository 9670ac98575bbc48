/**
 * The frame's handle on the signer Worker. The Worker (~32 KB of curves and key splitting) starts
 * on first use or when {@link startSigner} says one is near — a sign-in began, or this device
 * holds a share of a session to restore — not with the frame, whose first load stays small
 * (issue 26): a visitor who only looks at Connect never fetches it.
 */
import { type Remote, wrap } from 'comlink'
import type { SignerApi } from './signer.worker.js'

let remote: Remote<SignerApi> | undefined

/**
 * Starts the signer Worker if it is not running (it then builds its curves' tables at once).
 *
 * @example
 * startSigner() // the e-mail code is on its way
 */
export function startSigner(): Remote<SignerApi> {
  remote ??= wrap<SignerApi>(
    new Worker(new URL('./signer.worker.ts', import.meta.url), { type: 'module' }),
  )
  return remote
}

/** The signer, running in its own Worker (started by the first call through it). */
export const signer: Remote<SignerApi> = new Proxy({} as Remote<SignerApi>, {
  get: (_, key) => startSigner()[key as keyof Remote<SignerApi>],
})
