/**
 * Sign in with the wallet (SIWX, spec §4 "Wallet sign-in"): when the host asked for it and the
 * active account has no session on its network, the SIWXSignMessage view opens; signing makes an
 * EIP-4361 message (CAIP-122 on Solana) with a nonce from the API, signs it in the wallet, and
 * the API checks and stores the session. Cancel: required → back to the last signed-in network,
 * else disconnected; optional → closed. Disconnecting revokes the sessions (sign-out on
 * disconnect). `connect()` resolves once signed in when sign-in is required.
 */
import { BaseError } from '@porthole/protocol'
import { formatSiwxMessage, type SiwxNamespace } from '@porthole/shared'
import { getApiClient } from '../api/client.js'
import { runtime } from '../runtime.js'
import { store } from '../store/store.js'
import type { SiwxSession } from '../store/types.js'
import * as Connection from './connection.js'
import * as Modal from './modal.js'
import * as NetworkActions from './network.js'

/** How long a session lasts (the message's expiration): one day. */

/** `text`'s UTF-8 bytes as 0x-prefixed hex: personal_sign's message parameter. */
function utf8Hex(text: string): `0x${string}` {
  let hex = '0x'
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0')
  return hex as `0x${string}`
}

export const SESSION_MS = 86_400_000

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** The session of an address on a network, if it is live. */
export function sessionFor(address: string, caipNetworkId: string, now = Date.now()) {
  return store
    .getState()
    .siwxSessions.find(
      (s) => same(s.address, address) && s.caipNetworkId === caipNetworkId && s.expiresAt > now,
    )
}

/** The active account and network, when sign-in applies to them (eip155 and solana). */
function target(): { address: string; caipNetworkId: string; namespace: SiwxNamespace } | null {
  const { connection, config } = store.getState()
  if (!config.siwx || connection.status !== 'connected') return null
  const { address, caipNetworkId } = connection
  const namespace = caipNetworkId?.split(':')[0]
  if (!address || !caipNetworkId || (namespace !== 'eip155' && namespace !== 'solana')) return null
  return { address, caipNetworkId, namespace }
}

/**
 * The account and network {@link signIn} signs for, or spec §8's SIWX error saying what is
 * missing (the view can outlive them: the wallet disconnects or leaves the network while it
 * shows): no `siwx` option, or a namespace sign-in does not cover → 'SIWX is not enabled'; no
 * connected account → 'No ActiveCaipAddress found'; no network → 'No ActiveCaipNetwork or client
 * found'; the account's connector gone → 'No ConnectionController client found'.
 */
function signInTarget(): NonNullable<ReturnType<typeof target>> {
  const { connection, config } = store.getState()
  if (!config.siwx) throw new BaseError('SIWX is not enabled')
  if (connection.status !== 'connected' || !connection.address)
    throw new BaseError('No ActiveCaipAddress found')
  if (!connection.caipNetworkId) throw new BaseError('No ActiveCaipNetwork or client found')
  const t = target()
  if (!t) throw new BaseError('SIWX is not enabled')
  const active = Connection.activeConnection(store.getState(), t.namespace)
  if (!active || !Connection.getConnector(active.connector.id))
    throw new BaseError('No ConnectionController client found')
  return t
}

/** True when the active account must (or may) sign in before the modal lets go. */
export function needsSignIn(): boolean {
  const t = target()
  return !!t && !sessionFor(t.address, t.caipNetworkId)
}

/** True while the sign view may not be closed: required and no session (spec §2). */
export function blocksClose(): boolean {
  return !!store.getState().config.siwx?.required && needsSignIn()
}

/** Opens SIWXSignMessage (the modal shows itself when closed). */
export function ask(): void {
  const { open, history } = store.getState()
  if (open && history.at(-1)?.view === 'SIWXSignMessage') return
  store.setState({ open: true, history: [{ view: 'SIWXSignMessage' }] })
}

/**
 * Signs in the active account on its network: nonce, message, the wallet's signature, the
 * API's check. Then the modal closes and waiting `connect()` calls resolve. Errors (4001 when
 * the wallet refuses, the API's refusals) propagate to the view.
 *
 * @example
 * await signIn()
 */
export async function signIn(): Promise<void> {
  const t = signInTarget()
  const api = getApiClient()
  const { nonce } = await api.get<{ nonce: string }>('/auth/v1/siwx/nonce')
  const host = new URL(runtime.hostOrigin)
  const now = Date.now()
  const text = formatSiwxMessage(t.namespace, {
    domain: host.host,
    address: t.address,
    statement: store.getState().config.siwx?.statement,
    uri: host.origin,
    version: '1',
    chainId: t.caipNetworkId.split(':')[1] as string,
    nonce,
    issuedAt: new Date(now).toISOString(),
    expirationTime: new Date(now + SESSION_MS).toISOString(),
  })
  const signature =
    t.namespace === 'eip155'
      ? String(await Connection.connectorRequest('personal_sign', [utf8Hex(text), t.address]))
      : await signSolana(text, t.address)
  const answer = await api.post<{ token: string; session: Omit<SiwxSession, 'token'> }>(
    '/auth/v1/siwx/sessions',
    { message: text, signature, caipNetworkId: t.caipNetworkId },
  )
  const session: SiwxSession = { ...answer.session, token: answer.token }
  store.setState((s) => ({
    siwxSessions: [
      ...s.siwxSessions.filter(
        (x) => !(same(x.address, session.address) && x.caipNetworkId === session.caipNetworkId),
      ),
      session,
    ],
  }))
  Connection.settleConnectWaiters()
  Modal.close()
}

async function signSolana(text: string, address: string): Promise<string> {
  const { base58 } = await import('@scure/base')
  const answer = (await Connection.connectorRequest(
    'solana_signMessage',
    { message: base58.encode(new TextEncoder().encode(text)), pubkey: address },
    'solana',
  )) as { signature?: unknown }
  if (typeof answer?.signature !== 'string') throw new Error('The wallet returned no signature')
  return answer.signature
}

/**
 * The user declined to sign (spec §4): when sign-in is required, back to the last network the
 * account signed in on, else disconnected; when optional, the modal closes.
 *
 * @example
 * await cancel()
 */
export async function cancel(): Promise<void> {
  const t = target()
  if (!store.getState().config.siwx?.required || !t) {
    Modal.close()
    return
  }
  const signedElsewhere = store
    .getState()
    .siwxSessions.find((s) => same(s.address, t.address) && s.expiresAt > Date.now())
  if (signedElsewhere) {
    try {
      await NetworkActions.performSwitch(NetworkActions.findNetwork(signedElsewhere.caipNetworkId))
      Connection.settleConnectWaiters()
      Modal.close()
      return
    } catch {}
  }
  await Connection.disconnect()
}

/** The API's URL of the session a token names. */
function currentUrl(): string {
  return getApiClient().url('/auth/v1/siwx/sessions/current')
}

/** Revokes the sessions of addresses no longer connected (sign-out on disconnect). */
async function revokeGone(): Promise<void> {
  const { siwxSessions, connections } = store.getState()
  const gone = siwxSessions.filter((s) => !connections.some((c) => same(c.address, s.address)))
  if (gone.length === 0) return
  store.setState((s) => ({ siwxSessions: s.siwxSessions.filter((x) => !gone.includes(x)) }))
  await Promise.all(
    gone.map((s) =>
      fetch(getApiClient().url('/auth/v1/siwx/sessions/current/revoke'), {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}` },
      }).catch(() => {}),
    ),
  )
}

/**
 * After a reload: drops kept sessions the API no longer knows (revoked elsewhere, expired).
 *
 * @example
 * await checkKeptSessions()
 */
export async function checkKeptSessions(): Promise<void> {
  const kept = store.getState().siwxSessions
  const dead: SiwxSession[] = []
  await Promise.all(
    kept.map(async (s) => {
      const response = await fetch(currentUrl(), {
        headers: { authorization: `Bearer ${s.token}` },
      }).catch(() => undefined)
      if (response && (response.status === 404 || response.status === 401)) dead.push(s)
    }),
  )
  if (dead.length)
    store.setState((s) => ({ siwxSessions: s.siwxSessions.filter((x) => !dead.includes(x)) }))
}

/**
 * Wires sign-in into the modal: the connection gate (no `connect()` answer before signing when
 * required), the sign view on every new account or network without a session, closing rules,
 * and revocation on disconnect.
 *
 * @example
 * watchSignIn()
 */
export function watchSignIn(): void {
  Connection.setSignInGate((silent) => {
    if (!needsSignIn()) return 'none'
    const required = !!store.getState().config.siwx?.required
    // A restore (silent) asks only when sign-in is required; a fresh connection always asks.
    if (required || !silent) ask()
    return required ? 'required' : 'optional'
  })
  Modal.setClosable(() => !(Modal.currentView() === 'SIWXSignMessage' && blocksClose()))
  let last = ''
  store.subscribe((state) => {
    const t = target()
    const key = t ? `${t.address}|${t.caipNetworkId}` : ''
    if (key === last) return
    const restored = last === ''
    last = key
    // A new network or account asks; a restore after a reload asks only when sign-in is
    // required (optional sign-in asks on a fresh connection, through the gate, not every visit).
    const required = !!state.config.siwx?.required
    if (t && needsSignIn() && state.ready && (required || !restored)) ask()
    if (state.siwxSessions.length > 0) void revokeGone()
  })
}
