/**
 * The frame's handle on the signer Worker.
 */
import { type Remote, wrap } from 'comlink'
import type { SignerApi } from './signer.worker.js'

/** The signer, running in its own Worker. */
export const signer: Remote<SignerApi> = wrap<SignerApi>(
  new Worker(new URL('./signer.worker.ts', import.meta.url), { type: 'module' }),
)
