/**
 * Turns raw JSON-RPC blocks, logs and receipts into the rows the index stores: native
 * transfers (transactions with value), ERC-20 and ERC-721 `Transfer` logs (told apart by their
 * topic count: ERC-721 indexes the token id, so it has 4 topics), the transactions they belong
 * to, and the per-account rows the endpoints read. Pure functions, no I/O.
 */
import { type Hex, hexToBigInt, toEventSelector } from 'viem'

/**
 * `Transfer(address,address,uint256)`, shared by ERC-20 and ERC-721.
 *
 * @example
 * TRANSFER_TOPIC // '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
 */
export const TRANSFER_TOPIC: Hex = toEventSelector('Transfer(address,address,uint256)')

/**
 * The zero address, lower case (mints come from it, burns go to it).
 *
 * @example
 * transfer.from === ZERO_ADDRESS // a mint
 */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/** A transaction as `eth_getBlockByNumber(n, true)` returns it (the fields we read). */
export type RpcTransaction = {
  hash: Hex
  from: Hex
  to: Hex | null
  value: Hex
  nonce: Hex
  transactionIndex: Hex
}

/** A block with full transactions. */
export type RpcBlock = {
  number: Hex
  hash: Hex
  parentHash: Hex
  timestamp: Hex
  transactions: RpcTransaction[]
}

/** A log as `eth_getLogs` returns it. */
export type RpcLog = {
  address: Hex
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  blockHash: Hex
  transactionHash: Hex
  transactionIndex: Hex
  logIndex: Hex
  removed?: boolean
}

/** The receipt fields we read. */
export type RpcReceipt = { transactionHash: Hex; status?: Hex; contractAddress?: Hex | null }

/** What moved. */
export type TransferKind = 'native' | 'erc20' | 'erc721'

/** One transfer (a `chain_transfers` row). Addresses are lower case; `token` '' for native. */
export type TransferRow = {
  chainId: string
  txHash: string
  /** The log's index in its block; -1 for the native value of the transaction. */
  logIndex: number
  blockNumber: number
  txIndex: number
  kind: TransferKind
  token: string
  from: string
  to: string
  /** Base units as a decimal string ('1' for an NFT). */
  amount: string
  /** ERC-721 token id (decimal string), else null. */
  tokenId: string | null
}

/** A transaction that moved value (a `chain_transactions` row). */
export type TransactionRow = {
  chainId: string
  hash: string
  blockNumber: number
  txIndex: number
  /** Block time, ms since the epoch. */
  timestamp: number
  from: string
  to: string | null
  nonce: number
  status: 'confirmed' | 'failed'
}

/** A block the index remembers (a `chain_blocks` row). */
export type BlockRow = { chainId: string; number: number; hash: string; timestamp: number }

/** A decoded `Transfer` log. */
export type DecodedTransferLog =
  | { kind: 'erc20'; token: string; from: string; to: string; amount: bigint }
  | { kind: 'erc721'; token: string; from: string; to: string; tokenId: bigint }

/**
 * Decodes a `Transfer` log: 3 topics and a 32-byte amount is ERC-20, 4 topics (the token id
 * indexed) is ERC-721; anything else (another event, a malformed log) is `undefined`.
 *
 * @example
 * classifyTransferLog(log) // { kind: 'erc20', token: '0x5fbd…', from: '0xf39f…', to: '0x7099…', amount: 10n }
 */
export function classifyTransferLog(
  log: Pick<RpcLog, 'address' | 'topics' | 'data'>,
): DecodedTransferLog | undefined {
  const [topic, fromTopic, toTopic, idTopic] = log.topics
  if (topic?.toLowerCase() !== TRANSFER_TOPIC || !fromTopic || !toTopic) return undefined
  if (!isWord(fromTopic) || !isWord(toTopic)) return undefined
  const token = log.address.toLowerCase()
  const from = topicAddress(fromTopic)
  const to = topicAddress(toTopic)
  if (log.topics.length === 3 && isWord(log.data))
    return { kind: 'erc20', token, from, to, amount: hexToBigInt(log.data) }
  if (log.topics.length === 4 && idTopic && isWord(idTopic) && (log.data === '0x' || !log.data))
    return { kind: 'erc721', token, from, to, tokenId: hexToBigInt(idTopic) }
  return undefined
}

/** Input of {@link decodeRange}. */
export type DecodeRangeParameters = {
  /** CAIP-2 id of the chain. */
  chainId: string
  /** Consecutive blocks with full transactions. */
  blocks: readonly RpcBlock[]
  /** Every `Transfer` log of those blocks. */
  logs: readonly RpcLog[]
  /** Receipts of the transactions with value, by lower-case hash. */
  receipts: ReadonlyMap<string, RpcReceipt>
}

/** Output of {@link decodeRange}. */
export type DecodeRangeReturnType = {
  blocks: BlockRow[]
  transactions: TransactionRow[]
  transfers: TransferRow[]
}

/**
 * The index rows of a block range: every transaction with value > 0 is a native transfer (its
 * status from its receipt; a contract creation's recipient is the new contract), every
 * `Transfer` log an ERC-20 or ERC-721 transfer (logs exist only for successful transactions, so
 * those are confirmed), and each transaction with at least one transfer a transaction row.
 * Transfers come out in chain order (block, native first, then log index).
 *
 * @example
 * const { transfers } = decodeRange({ chainId: 'eip155:31337', blocks, logs, receipts })
 */
export function decodeRange({
  chainId,
  blocks,
  logs,
  receipts,
}: DecodeRangeParameters): DecodeRangeReturnType {
  const blockRows: BlockRow[] = []
  const transactions = new Map<string, TransactionRow>()
  const transfers: TransferRow[] = []
  const txByHash = new Map<string, { tx: RpcTransaction; block: BlockRow }>()
  const logsByBlock = new Map<number, RpcLog[]>()
  for (const log of logs) {
    if (log.removed) continue
    const number = Number(hexToBigInt(log.blockNumber))
    let list = logsByBlock.get(number)
    if (!list) {
      list = []
      logsByBlock.set(number, list)
    }
    list.push(log)
  }

  const transaction = (tx: RpcTransaction, block: BlockRow, status: TransactionRow['status']) => {
    const hash = tx.hash.toLowerCase()
    let row = transactions.get(hash)
    if (!row) {
      row = {
        chainId,
        hash,
        blockNumber: block.number,
        txIndex: Number(hexToBigInt(tx.transactionIndex)),
        timestamp: block.timestamp,
        from: tx.from.toLowerCase(),
        to: tx.to ? tx.to.toLowerCase() : null,
        nonce: Number(hexToBigInt(tx.nonce)),
        status,
      }
      transactions.set(hash, row)
    }
    return row
  }

  for (const block of blocks) {
    const row: BlockRow = {
      chainId,
      number: Number(hexToBigInt(block.number)),
      hash: block.hash.toLowerCase(),
      timestamp: Number(hexToBigInt(block.timestamp)) * 1000,
    }
    blockRows.push(row)
    for (const tx of block.transactions) {
      txByHash.set(tx.hash.toLowerCase(), { tx, block: row })
      const value = hexToBigInt(tx.value)
      if (value === 0n) continue
      const receipt = receipts.get(tx.hash.toLowerCase())
      const status = receipt?.status === '0x0' ? 'failed' : 'confirmed'
      const txRow = transaction(tx, row, status)
      const to = tx.to ?? receipt?.contractAddress ?? ZERO_ADDRESS
      transfers.push({
        chainId,
        txHash: txRow.hash,
        logIndex: -1,
        blockNumber: row.number,
        txIndex: txRow.txIndex,
        kind: 'native',
        token: '',
        from: txRow.from,
        to: to.toLowerCase(),
        amount: value.toString(),
        tokenId: null,
      })
    }
    const blockLogs = (logsByBlock.get(row.number) ?? []).sort(
      (a, b) => Number(hexToBigInt(a.logIndex)) - Number(hexToBigInt(b.logIndex)),
    )
    for (const log of blockLogs) {
      const decoded = classifyTransferLog(log)
      if (!decoded) continue
      const found = txByHash.get(log.transactionHash.toLowerCase())
      if (!found) continue
      const txRow = transaction(found.tx, found.block, 'confirmed')
      transfers.push({
        chainId,
        txHash: txRow.hash,
        logIndex: Number(hexToBigInt(log.logIndex)),
        blockNumber: row.number,
        txIndex: txRow.txIndex,
        kind: decoded.kind,
        token: decoded.token,
        from: decoded.from,
        to: decoded.to,
        amount: decoded.kind === 'erc20' ? decoded.amount.toString() : '1',
        tokenId: decoded.kind === 'erc721' ? decoded.tokenId.toString() : null,
      })
    }
  }
  return { blocks: blockRows, transactions: [...transactions.values()], transfers }
}

/** A `chain_account_txs` row: an account took part in a transaction. */
export type AccountTxRow = {
  account: string
  chainId: string
  timestamp: number
  blockNumber: number
  txIndex: number
  txHash: string
}

/** A `chain_account_tokens` row: an account touched a token. */
export type AccountTokenRow = {
  chainId: string
  account: string
  token: string
  kind: 'erc20' | 'erc721'
  firstBlock: number
}

/** The latest owner of an ERC-721 token within a range (a `chain_nfts` upsert). */
export type NftOwnerRow = {
  chainId: string
  contract: string
  tokenId: string
  owner: string
  blockNumber: number
  logIndex: number
}

/**
 * The per-account rows of decoded transfers: one transaction row per (account, transaction),
 * one token row per (account, token), and the last owner of each ERC-721 token moved. The zero
 * address is nobody's account.
 *
 * @example
 * const { accountTxs, accountTokens, nftOwners } = accountRows(transfers, transactions)
 */
export function accountRows(
  transfers: readonly TransferRow[],
  transactions: readonly TransactionRow[],
): { accountTxs: AccountTxRow[]; accountTokens: AccountTokenRow[]; nftOwners: NftOwnerRow[] } {
  const timestamps = new Map(transactions.map((tx) => [tx.hash, tx.timestamp]))
  const accountTxs = new Map<string, AccountTxRow>()
  const accountTokens = new Map<string, AccountTokenRow>()
  const nftOwners = new Map<string, NftOwnerRow>()
  for (const transfer of transfers) {
    for (const account of [transfer.from, transfer.to]) {
      if (account === ZERO_ADDRESS) continue
      const txKey = `${account}|${transfer.txHash}`
      if (!accountTxs.has(txKey))
        accountTxs.set(txKey, {
          account,
          chainId: transfer.chainId,
          timestamp: timestamps.get(transfer.txHash) ?? 0,
          blockNumber: transfer.blockNumber,
          txIndex: transfer.txIndex,
          txHash: transfer.txHash,
        })
      if (transfer.kind === 'native') continue
      const tokenKey = `${account}|${transfer.token}`
      if (!accountTokens.has(tokenKey))
        accountTokens.set(tokenKey, {
          chainId: transfer.chainId,
          account,
          token: transfer.token,
          kind: transfer.kind,
          firstBlock: transfer.blockNumber,
        })
    }
    if (transfer.kind === 'erc721' && transfer.tokenId !== null)
      nftOwners.set(`${transfer.token}|${transfer.tokenId}`, {
        chainId: transfer.chainId,
        contract: transfer.token,
        tokenId: transfer.tokenId,
        owner: transfer.to,
        blockNumber: transfer.blockNumber,
        logIndex: transfer.logIndex,
      })
  }
  return {
    accountTxs: [...accountTxs.values()],
    accountTokens: [...accountTokens.values()],
    nftOwners: [...nftOwners.values()],
  }
}

/**
 * A token id as 64 hex digits, so that text order is numeric order.
 *
 * @example
 * tokenKey('255') // '00…ff'
 */
export function tokenKey(tokenId: string): string {
  return BigInt(tokenId).toString(16).padStart(64, '0')
}

function isWord(value: string | undefined): value is Hex {
  return typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value)
}

function topicAddress(topic: Hex): string {
  return `0x${topic.slice(-40)}`.toLowerCase()
}
