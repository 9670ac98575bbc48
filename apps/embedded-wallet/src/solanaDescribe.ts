/**
 * What a Solana approval card says, as pure functions of the request and what was read from the
 * chain before the card was drawn: a message as UTF-8 text (hidden characters made visible) or
 * hex; a transaction with its network, fee payer, SOL transfers (amount and recipient), simple
 * SPL token transfers, the network fee, and "N other instructions" listed whole for the rest.
 */
import { getKnownNetwork, SOLANA_LOCAL_TOKEN } from '@porthole/shared'
import { base58 } from '@scure/base'
import { bytesToHex, formatUnits } from 'viem'
import { type ApprovalContent, type ApprovalField, formatValue, visibleText } from './describe.js'
import { decimal, plural, t } from './i18n/en.js'
import type { Message } from './solanaWire.js'

export const SYSTEM_PROGRAM = '11111111111111111111111111111111'
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111'
/** The owner of address lookup table accounts. */
export const ADDRESS_LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111'

/** The base fee of one signature, in lamports. */
const LAMPORTS_PER_SIGNATURE = 5000n
/** Compute units an instruction gets when the transaction sets no limit, and the cap. */
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n
const MAX_UNITS = 1_400_000n

const SOL = { symbol: 'SOL', decimals: 9 }
/** Tokens the card names by symbol (by mint). */
const KNOWN_TOKENS = new Map<string, { symbol: string; decimals: number }>([
  [SOLANA_LOCAL_TOKEN.mint, SOLANA_LOCAL_TOKEN],
])

/** A Solana network as the card names it. */
export type SolanaNetwork = { caipNetworkId: string; name: string }

/**
 * The network of a CAIP-2 reference, named when Porthole knows it.
 *
 * @example
 * solanaNetworkOf('5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp') // { caipNetworkId: 'solana:5eykt…', name: 'Solana' }
 */
export function solanaNetworkOf(reference: string): SolanaNetwork {
  const caipNetworkId = `solana:${reference}`
  return { caipNetworkId, name: getKnownNetwork(caipNetworkId)?.name ?? t('solanaNetwork') }
}

/**
 * A message as the card shows it: its text when it is UTF-8 without control characters, else
 * `0x` and its hex.
 *
 * @example
 * solanaMessageText(new TextEncoder().encode('hi')) // 'hi'
 */
export function solanaMessageText(message: Uint8Array): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(message)
    if (/^[\P{Cc}\n\r\t]*$/u.test(text)) return text
  } catch {}
  return bytesToHex(message)
}

/**
 * The card of a `solana_signMessage`.
 *
 * @example
 * describeSolanaMessage({ message, account, origin: 'http://localhost:4000' })
 */
export function describeSolanaMessage(parameters: {
  message: Uint8Array
  account: string
  origin: string
}): ApprovalContent {
  const { text, hidden } = visibleText(solanaMessageText(parameters.message))
  return {
    title: t('signMessage'),
    origin: parameters.origin,
    fields: [{ label: t('account'), value: parameters.account, mono: true }],
    body: { label: t('message'), text },
    warnings: hidden ? [t('hiddenWarning')] : [],
  }
}

/** An instruction as the card reads it. */
export type SolanaAction =
  | { kind: 'solTransfer'; from: string; to: string; lamports: bigint }
  | {
      kind: 'tokenTransfer'
      /** Token accounts (not their owners), and the authority that moves the tokens. */
      source: string
      destination: string
      authority: string
      amount: bigint
      /** Known for `TransferChecked` only. */
      mint?: string
      decimals?: number
    }
  | { kind: 'computeBudget'; unitLimit?: bigint; unitPrice?: bigint }
  | { kind: 'other'; index: number; program: string; accounts: string[]; data: Uint8Array }

/** A transaction as the card reads it. */
export type SolanaTransactionSummary = {
  feePayer: string
  /** Signatures it needs besides the wallet's. */
  otherSigners: number
  actions: SolanaAction[]
  /** Base fee plus priority fee, in lamports. */
  fee: bigint
  /** Whether some accounts come from lookup tables that could not be read. */
  unresolved: boolean
}

/**
 * The accounts of a message in index order: static accounts, then each lookup table's writable
 * ones, then each table's read-only ones. `tables` holds the addresses of the tables that could
 * be read; an account of another table is named by table and index.
 *
 * @example
 * accountsOf(message, new Map([[table, addresses]]))
 */
export function accountsOf(
  message: Message,
  tables: ReadonlyMap<string, readonly string[]>,
): { accounts: string[]; unresolved: boolean } {
  const accounts = message.staticAccountKeys.map((key) => base58.encode(key))
  let unresolved = false
  for (const which of ['writableIndexes', 'readonlyIndexes'] as const)
    for (const lookup of message.addressTableLookups) {
      const table = base58.encode(lookup.accountKey)
      const addresses = tables.get(table)
      for (const index of lookup[which]) {
        const address = addresses?.[index]
        if (address === undefined) unresolved = true
        accounts.push(address ?? `lookup table ${table} #${index}`)
      }
    }
  return { accounts, unresolved }
}

const u64 = (data: Uint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true)
const u32 = (data: Uint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true)

function action(
  index: number,
  program: string,
  accounts: string[],
  data: Uint8Array,
): SolanaAction {
  if (program === SYSTEM_PROGRAM && data.length === 12 && u32(data, 0) === 2 && accounts[1])
    return {
      kind: 'solTransfer',
      from: accounts[0] as string,
      to: accounts[1],
      lamports: u64(data, 4),
    }
  if (program === TOKEN_PROGRAM || program === TOKEN_2022_PROGRAM) {
    if (data[0] === 3 && data.length === 9 && accounts[2])
      return {
        kind: 'tokenTransfer',
        source: accounts[0] as string,
        destination: accounts[1] as string,
        authority: accounts[2],
        amount: u64(data, 1),
      }
    if (data[0] === 12 && data.length === 10 && accounts[3])
      return {
        kind: 'tokenTransfer',
        source: accounts[0] as string,
        mint: accounts[1] as string,
        destination: accounts[2] as string,
        authority: accounts[3],
        amount: u64(data, 1),
        decimals: data[9] as number,
      }
  }
  if (program === COMPUTE_BUDGET_PROGRAM) {
    if (data[0] === 2 && data.length === 5)
      return { kind: 'computeBudget', unitLimit: BigInt(u32(data, 1)) }
    if (data[0] === 3 && data.length === 9)
      return { kind: 'computeBudget', unitPrice: u64(data, 1) }
    if ((data[0] === 1 || data[0] === 4) && data.length === 5) return { kind: 'computeBudget' }
  }
  return { kind: 'other', index, program, accounts, data }
}

/**
 * Reads a message into what the card shows.
 *
 * @example
 * summarizeTransaction(tx.message, new Map())
 */
export function summarizeTransaction(
  message: Message,
  tables: ReadonlyMap<string, readonly string[]> = new Map(),
): SolanaTransactionSummary {
  const { accounts, unresolved } = accountsOf(message, tables)
  const actions = message.instructions.map((instruction, index) =>
    action(
      index,
      accounts[instruction.programIdIndex] as string,
      instruction.accountKeyIndexes.map((i) => accounts[i] as string),
      instruction.data,
    ),
  )
  let unitLimit: bigint | undefined
  let unitPrice = 0n
  for (const a of actions)
    if (a.kind === 'computeBudget') {
      if (a.unitLimit !== undefined) unitLimit = a.unitLimit
      if (a.unitPrice !== undefined) unitPrice = a.unitPrice
    }
  const counted = BigInt(actions.filter((a) => a.kind !== 'computeBudget').length)
  const units =
    unitLimit ??
    (counted * DEFAULT_UNITS_PER_INSTRUCTION > MAX_UNITS
      ? MAX_UNITS
      : counted * DEFAULT_UNITS_PER_INSTRUCTION)
  // The priority fee is micro-lamports per unit, rounded up.
  const priority = (unitPrice * units + 999_999n) / 1_000_000n
  return {
    feePayer: accounts[0] as string,
    otherSigners: message.header.numRequiredSignatures - 1,
    actions,
    fee: LAMPORTS_PER_SIGNATURE * BigInt(message.header.numRequiredSignatures) + priority,
    unresolved,
  }
}

const sol = (lamports: bigint) => formatValue(lamports, SOL)

function tokenAmount(a: Extract<SolanaAction, { kind: 'tokenTransfer' }>): string {
  const known = a.mint ? KNOWN_TOKENS.get(a.mint) : undefined
  if (known && a.decimals === known.decimals) return formatValue(a.amount, known)
  if (a.decimals !== undefined)
    return t('tokens', { amount: decimal(formatUnits(a.amount, a.decimals)) })
  return t('tokenBaseUnits', { amount: a.amount.toString() })
}

/** The fields, other-instruction lines and warnings of one transaction. */
function transactionParts(summary: SolanaTransactionSummary, prefix: (label: string) => string) {
  const fields: ApprovalField[] = []
  const field = (label: string, value: string, mono = false) =>
    fields.push({ label: prefix(label), value, ...(mono ? { mono } : {}) })
  const others = summary.actions.filter((a) => a.kind === 'other')
  for (const a of summary.actions) {
    if (a.kind === 'solTransfer') {
      field(t('send'), sol(a.lamports))
      field(t('to'), a.to, true)
      if (a.from !== summary.feePayer) field(t('from'), a.from, true)
    } else if (a.kind === 'tokenTransfer') {
      field(t('send'), tokenAmount(a))
      if (a.mint) field(t('token'), a.mint, true)
      field(t('toTokenAccount'), a.destination, true)
      if (a.authority !== summary.feePayer) field(t('tokenOwner'), a.authority, true)
    }
  }
  if (others.length)
    field(t('other'), plural(others.length, 'otherInstructionsOne', 'otherInstructionsOther'))
  if (summary.otherSigners > 0) field(t('otherSigners'), String(summary.otherSigners))
  field(t('networkFee'), sol(summary.fee))
  const lines = others.map((a) =>
    [
      prefix(`Instruction ${a.index + 1}: program ${a.program}`),
      ...a.accounts.map((account) => `  account ${account}`),
      `  data ${a.data.length ? bytesToHex(a.data) : '(none)'}`,
    ].join('\n'),
  )
  return { fields, lines, others: others.length, unresolved: summary.unresolved }
}

/** What {@link describeSolanaTransactions} needs. */
export type DescribeSolanaTransactionsParameters = {
  /** Sign (`solana_signTransaction`, `…signAllTransactions`) or sign and send. */
  send: boolean
  origin: string
  network: SolanaNetwork
  summaries: readonly SolanaTransactionSummary[]
}

/**
 * The card of a Solana transaction, or of several signed at once (one card for all of them).
 *
 * @example
 * describeSolanaTransactions({ send: true, origin, network, summaries: [summary] })
 */
export function describeSolanaTransactions(
  parameters: DescribeSolanaTransactionsParameters,
): ApprovalContent {
  const { send, origin, network, summaries } = parameters
  const many = summaries.length > 1
  const fields: ApprovalField[] = [
    { label: t('network'), value: `${network.name} (${network.caipNetworkId})` },
    { label: t('feePayer'), value: summaries[0]?.feePayer ?? '', mono: true },
  ]
  const lines: string[] = []
  let others = 0
  let unresolved = false
  summaries.forEach((summary, i) => {
    const parts = transactionParts(summary, (label) =>
      many ? t('transactionPrefix', { index: i + 1, label }) : label,
    )
    fields.push(...parts.fields)
    lines.push(...parts.lines)
    others += parts.others
    unresolved ||= parts.unresolved
  })
  const warnings: string[] = []
  if (others) warnings.push(plural(others, 'unreadableOne', 'unreadableOther'))
  if (unresolved) warnings.push(t('lookupTables'))
  return {
    title: send
      ? t('sendTransaction')
      : many
        ? t('signTransactions', { count: summaries.length })
        : t('signTransaction'),
    origin,
    fields,
    ...(lines.length ? { body: { label: t('otherInstructions'), text: lines.join('\n\n') } } : {}),
    warnings,
  }
}
