/**
 * `connect()` calls from the host waiting for a connection: resolved when an account (of the
 * namespace they asked for, if any) connects, rejected when the modal closes first.
 */
import type { ConnectResult } from '@porthole/protocol'
import type { ChainNamespace } from '@porthole/shared'

type Waiter = {
  namespace: ChainNamespace | undefined
  resolve: (result: ConnectResult) => void
  reject: (error: unknown) => void
}
let waiters: Waiter[] = []

/**
 * Registers a waiter (for `namespace` only, when given). Aborting `signal` removes it and
 * rejects with the signal's reason (a headless connect whose wallet refused).
 */
export function wait(namespace?: ChainNamespace, signal?: AbortSignal): Promise<ConnectResult> {
  if (signal?.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const waiter = { namespace, resolve, reject }
    waiters.push(waiter)
    signal?.addEventListener('abort', () => {
      if (!waiters.includes(waiter)) return
      waiters = waiters.filter((w) => w !== waiter)
      reject(signal.reason)
    })
  })
}

/**
 * Resolves every waiter the current connections satisfy: `resultFor(namespace)` is the
 * connection a waiter for that namespace (or for any, `undefined`) gets.
 *
 * @example
 * settle((namespace) => connectResult(namespace))
 */
export function settle(resultFor: (namespace?: ChainNamespace) => ConnectResult | undefined): void {
  const left: Waiter[] = []
  const done: [Waiter, ConnectResult][] = []
  for (const waiter of waiters) {
    const result = resultFor(waiter.namespace)
    if (result) done.push([waiter, result])
    else left.push(waiter)
  }
  waiters = left
  for (const [waiter, result] of done) waiter.resolve(result)
}

/** Rejects every waiter. */
export function rejectAll(error: unknown): void {
  const list = waiters
  waiters = []
  for (const waiter of list) waiter.reject(error)
}

/** How many are waiting. */
export function count(): number {
  return waiters.length
}
