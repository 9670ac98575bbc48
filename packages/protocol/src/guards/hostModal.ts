/**
 * zod-free validator for what the host (SDK) receives from the modal: `ModalToHost`.
 * Mirrors `ModalToHostSchema`; `guards.test.ts` checks that both accept and reject alike.
 */
import type { CheckResult, Validator } from '../types.js'
import { isObject, isText, parseEnvelope } from './envelope.js'

const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/
const OPENABLE_URL = /^(?!(?:javascript|data|vbscript|file|blob):)[a-z][a-z0-9+.-]*:/i
const STATUSES = ['disconnected', 'connecting', 'connected']
const TYPES = ['INJECTED', 'ANNOUNCED', 'EXTERNAL', 'MULTI_CHAIN', 'WALLET_CONNECT', 'AUTH']
const NAMESPACES = ['eip155', 'solana', 'polkadot', 'bip122', 'cosmos']

const orNull = (x: unknown, check: (x: unknown) => boolean) => x === null || check(x)
const optional = (x: unknown, check: (x: unknown) => boolean) => x === undefined || check(x)
const isRpcParams = (x: unknown) => x === undefined || Array.isArray(x) || isObject(x)
/** An array of at most `max` items that all pass `check`. */
const isList = (x: unknown, max: number, check: (x: unknown) => boolean) =>
  Array.isArray(x) && x.length <= max && x.every(check)
const isNamespace = (x: unknown) => NAMESPACES.includes(x as string)
const isCaip2 = (x: unknown) => typeof x === 'string' && CAIP2.test(x)

const isConnector = (x: unknown) =>
  isObject(x) &&
  isText(x.id, 128) &&
  TYPES.includes(x.type as string) &&
  isText(x.name, 100) &&
  optional(x.rdns, (v) => isText(v, 128)) &&
  optional(x.uuid, (v) => isText(v, 64))

const isConnection = (x: unknown) =>
  isObject(x) &&
  isText(x.connectorId, 128) &&
  isNamespace(x.namespace) &&
  isText(x.address, 128) &&
  isText(x.caipAddress, 200) &&
  typeof x.active === 'boolean'

/** True when `x` is a valid `state` event payload. */
export const isPortholeState = (x: unknown): boolean =>
  isObject(x) &&
  typeof x.open === 'boolean' &&
  STATUSES.includes(x.status as string) &&
  orNull(x.address, (v) => isText(v, 128)) &&
  orNull(x.caipAddress, (v) => isText(v, 200)) &&
  orNull(x.caipNetworkId, isCaip2) &&
  orNull(x.chainId, (v) => (typeof v === 'number' && Number.isFinite(v)) || isText(v, 64)) &&
  orNull(x.connector, isConnector) &&
  orNull(x.view, (v) => isText(v, 64)) &&
  orNull(x.error, (v) => isObject(v) && Number.isSafeInteger(v.code) && isText(v.message, 200)) &&
  isList(x.connections, 20, isConnection) &&
  orNull(
    x.session,
    (v) =>
      isObject(v) &&
      isText(v.address, 128) &&
      isCaip2(v.caipNetworkId) &&
      isText(v.message, 8192) &&
      isText(v.signature, 2048),
  )

const SECTIONS = [
  'walletConnect',
  'recent',
  'installed',
  'featured',
  'custom',
  'external',
  'recommended',
]
const ICON = /^(?:data:image\/|https?:\/\/)/

const isHeadlessWallet = (x: unknown) =>
  isObject(x) &&
  isText(x.id, 128, 1) &&
  isText(x.name, 100) &&
  isText(x.icon, 200_000) &&
  (x.icon === '' || ICON.test(x.icon)) &&
  (x.type === 'injected' || x.type === 'walletConnect') &&
  SECTIONS.includes(x.section as string) &&
  typeof x.installed === 'boolean' &&
  optional(x.namespace, isNamespace)

/**
 * True when `x` is a valid answer to the headless `wallets` request (results are checked like
 * requests: a frame's answer is input too).
 *
 * @example
 * if (!isHeadlessWallets(answer)) throw new InternalRpcError('Invalid wallet list')
 */
export const isHeadlessWallets = (x: unknown): boolean => isList(x, 1000, isHeadlessWallet)

/**
 * True when `x` is a valid `connect` answer: `{ address, caipAddress, chainId, caipNetworkId }`.
 *
 * @example
 * if (!isConnectResult(answer)) throw new InternalRpcError('Invalid connect result')
 */
export const isConnectResult = (x: unknown): boolean =>
  isObject(x) &&
  isText(x.address, 128) &&
  isText(x.caipAddress, 200) &&
  ((typeof x.chainId === 'number' && Number.isFinite(x.chainId)) || isText(x.chainId, 64)) &&
  isCaip2(x.caipNetworkId)

const params: Record<string, (x: unknown) => boolean> = {
  injectedRequest: (x) =>
    isObject(x) && isText(x.uuid, 64, 1) && isText(x.method, 64, 1) && isRpcParams(x.params),
  openUrl: (x) =>
    isObject(x) &&
    isText(x.url, 4096) &&
    OPENABLE_URL.test(x.url) &&
    (x.target === '_blank' || x.target === '_self'),
}

const isProviderEvent = (x: unknown): boolean => {
  if (!isObject(x) || !optional(x.namespace, isNamespace)) return false
  const { event, data } = x
  if (event === 'connect') return isObject(data) && isText(data.chainId, 66)
  if (event === 'disconnect')
    return isObject(data) && Number.isSafeInteger(data.code) && isText(data.message, 200)
  if (event === 'accountsChanged') return isList(data, 100, (a) => isText(a, 128))
  return isText(data, event === 'chainChanged' ? 66 : event === 'display_uri' ? 4096 : -1)
}

const events: Record<string, (x: unknown) => boolean> = {
  state: isPortholeState,
  providerEvent: isProviderEvent,
  persist: (x) => isObject(x) && isText(x.value, 100_000),
}

const check = (
  table: Record<string, (x: unknown) => boolean>,
  key: string,
  value: unknown,
): CheckResult | undefined => {
  const fn = Object.hasOwn(table, key) ? table[key] : undefined
  if (!fn) return undefined
  return fn(value) ? { success: true, data: value } : { success: false, error: key }
}

/**
 * Validator the SDK uses on its port to the modal.
 *
 * @example
 * Channel.create({ port, validator: modalToHostValidator })
 */
export const modalToHostValidator: Validator = {
  envelope: parseEnvelope,
  params: (method, value) => check(params, method, value),
  event: (topic, value) => check(events, topic, value),
}
