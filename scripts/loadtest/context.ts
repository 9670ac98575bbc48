/**
 * What every phase of the load test gets, and what it gives back.
 */
import type { ProdStackState } from '@porthole/local-stack/prod'
import { DEV_ADDRESSES } from './chain.js'

/** The running production stack and the run's settings. */
export type LoadtestContext = {
  state: ProdStackState
  /** The stack's control endpoint (faults). */
  controlUrl: string
  /** Requests per second of the balance phase (acceptance: 2,000). */
  rate: number
  /** Seconds of the balance phase (acceptance: 60). */
  seconds: number
  log: (line: string) => void
}

/** A target of a phase: what was asked, what was measured, and whether it holds. */
export type Target = { name: string; want: string; got: string; ok: boolean }

/** What a phase measured. */
export type PhaseResult = {
  phase: string
  targets: Target[]
  /** Figures to print and keep (JSON). */
  figures: Record<string, unknown>
}

/**
 * A target line.
 *
 * @example
 * target('p99', '≤ 50 ms', `${p99} ms`, p99 <= 50)
 */
export function target(name: string, want: string, got: string, ok: boolean): Target {
  return { name, want, got, ok }
}

/** Query of the modal's API requests (`apps/modal-host/src/api/client.ts`). */
export function sdkQuery(state: ProdStackState): string {
  return `projectId=${encodeURIComponent(state.projectId)}&st=porthole&sv=loadtest`
}

/**
 * The modal's balance request for each dev account on both devnets
 * (`GET /v1/account/{address}/balance?currency=usd&chainId=…`, `routes/chainData.ts`).
 *
 * @example
 * balanceRequests(state)[0].path // '/v1/account/0xf39F…/balance?projectId=porthole-demo&…&chainId=eip155:31337'
 */
export function balanceRequests(state: ProdStackState): { method: 'GET'; path: string }[] {
  return DEV_ADDRESSES.flatMap((address) =>
    ['eip155:31337', 'eip155:31338'].map((chainId) => ({
      method: 'GET' as const,
      path: `/v1/account/${address}/balance?${sdkQuery(state)}&currency=usd&chainId=${chainId}`,
    })),
  )
}

/** The modal's history request (read from the indexed tables in PostgreSQL). */
export function historyRequests(state: ProdStackState): { method: 'GET'; path: string }[] {
  return DEV_ADDRESSES.map((address) => ({
    method: 'GET' as const,
    path: `/v1/account/${address}/history?${sdkQuery(state)}&chainId=eip155:31337`,
  }))
}

/** Headers of the modal frame's requests. */
export function modalHeaders(state: ProdStackState): Record<string, string> {
  return { origin: new URL(state.urls.modal).origin, accept: 'application/json' }
}

/** `GET /readyz` of a replica: its status, or 0 when it does not answer. */
export async function readyz(replicaUrl: string): Promise<number> {
  try {
    const response = await fetch(`${replicaUrl}/readyz`, { signal: AbortSignal.timeout(2000) })
    await response.arrayBuffer()
    return response.status
  } catch {
    return 0
  }
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms))
