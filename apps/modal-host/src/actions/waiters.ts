/**
 * `connect()` calls from the host waiting for a connection: resolved when an account
 * connects, rejected when the modal closes first.
 */
import type { ConnectResult } from '@porthole/protocol'

type Waiter = { resolve: (result: ConnectResult) => void; reject: (error: unknown) => void }
let waiters: Waiter[] = []

/** Registers a waiter. */
export function wait(): Promise<ConnectResult> {
  return new Promise((resolve, reject) => waiters.push({ resolve, reject }))
}

/** Resolves every waiter with the connection. */
export function resolveAll(result: ConnectResult): void {
  const list = waiters
  waiters = []
  for (const waiter of list) waiter.resolve(result)
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
