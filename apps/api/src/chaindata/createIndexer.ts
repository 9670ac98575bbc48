/**
 * The chain indexer: follows each configured EVM chain over JSON-RPC and records native,
 * ERC-20 and ERC-721 transfers in the database (see `decode.ts` and `indexStore.ts`).
 *
 * Loop per chain: read the stored cursor; if the chain's genesis differs, start over; fetch the
 * next range of blocks (full transactions, one JSON-RPC batch) and its `Transfer` logs (one
 * `eth_getLogs`, split when a node refuses the range), the receipts of value transfers only,
 * and the metadata of contracts never seen; check that the range hangs off the stored block
 * hash (else roll back to the common ancestor); write everything and the new cursor in one
 * transaction. The next range is fetched while the current one is written. When caught up it
 * polls the head every `pollIntervalMs`; RPC failures back off up to 30 s.
 */
import { type Hex, hexToBigInt, toHex } from 'viem'
import type { Db } from '../db/Db.js'
import {
  accountRows,
  decodeRange,
  type RpcBlock,
  type RpcLog,
  type RpcReceipt,
  TRANSFER_TOPIC,
} from './decode.js'
import {
  type ChainCursor,
  CursorMovedError,
  knownTokenAddresses,
  readCursor,
  recentBlocks,
  resetChain,
  rollback,
  writeRange,
} from './indexStore.js'
import { type NftMetadataFetcher, resolvePendingNfts } from './nftMetadata.js'
import { createRpc, type Rpc, RpcError, unwrap } from './rpc.js'
import { readTokenMetadata } from './tokenMetadata.js'

/** A chain the indexer follows. */
export type IndexedChain = {
  /** CAIP-2 id (`eip155:31337`). */
  chainId: string
  rpcUrl: string
  /** First block to index on an empty database; `'latest'` starts at the head. */
  startBlock: number | 'latest'
  /** Blocks to stay behind the head; 0 on devnets. */
  confirmations: number
}

/** Where one chain's indexing stands. */
export type IndexerChainStatus = {
  chainId: string
  /** Last indexed block, or -1. */
  indexed: number
  /** The chain's head when last asked, or -1. */
  head: number
  /** The last error, cleared by the next success. */
  error: string | undefined
}

/** Options of {@link createIndexer}. */
export type CreateIndexerParameters = {
  db: Db
  chains: readonly IndexedChain[]
  /** Head polling interval when caught up; default 500 ms. */
  pollIntervalMs?: number
  /** Blocks per range; default 500. */
  batchBlocks?: number
  /** Recent block hashes kept for reorg checks; default 256. */
  keepBlocks?: number
  /** Resolves NFT metadata after each range; none by default (names and images stay null). */
  nftMetadata?: NftMetadataFetcher | undefined
  /** RPC timeout; default 10 000 ms. */
  rpcTimeoutMs?: number
  /** Progress and error lines; default `console.log` with an `[indexer]` prefix. */
  log?: (line: string) => void
}

/** A running (or startable) indexer. */
export type Indexer = {
  /** Starts following every chain in the background (idempotent). */
  start(): void
  /** Stops the loops and waits for the range being written. */
  stop(): Promise<void>
  /**
   * Indexes `chainId` up to its current head and resolves pending NFT metadata; resolves with
   * the number of blocks indexed. Serialised with the background loop.
   *
   * @example
   * const { blocks } = await indexer.catchUp('eip155:31337')
   */
  catchUp(chainId: string): Promise<{ blocks: number }>
  /**
   * Resolves once `chainId` is indexed up to `blockNumber` (by this indexer's loop).
   *
   * @example
   * await indexer.waitFor('eip155:31337', Number(receipt.blockNumber))
   */
  waitFor(chainId: string, blockNumber: number, timeoutMs?: number): Promise<void>
  /** Progress of every chain. */
  status(): IndexerChainStatus[]
}

/**
 * Thrown when a chain's RPC answers another chain id than configured.
 *
 * @example
 * await indexer.catchUp('eip155:1') // throws ChainIdMismatchError when the RPC is another chain
 */
export class ChainIdMismatchError extends Error {
  override name = 'ChainIdMismatchError' as const
}

type Range = {
  from: number
  to: number
  blocks: RpcBlock[]
  logs: RpcLog[]
}

type ChainState = {
  chain: IndexedChain
  rpc: Rpc
  status: IndexerChainStatus
  verified: boolean
  genesisHash: string | undefined
  /** Serialises steps of the loop and `catchUp`. */
  lock: Promise<unknown>
  prefetch: { from: number; promise: Promise<Range> } | undefined
  waiters: { blockNumber: number; resolve: () => void }[]
  resolvingNfts: Promise<unknown> | undefined
  failures: number
}

/**
 * Builds an indexer for `chains` over `db` (not started: call `start()`, or `catchUp()`).
 *
 * @example
 * const indexer = createIndexer({ db, chains: [{ chainId: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545', startBlock: 0, confirmations: 0 }] })
 * indexer.start()
 * // …
 * await indexer.stop()
 */
export function createIndexer(parameters: CreateIndexerParameters): Indexer {
  const {
    db,
    pollIntervalMs = 500,
    batchBlocks = 500,
    keepBlocks = 256,
    nftMetadata,
    rpcTimeoutMs = 10_000,
    log = (line: string) => console.log(`[indexer] ${line}`),
  } = parameters
  const states = new Map<string, ChainState>()
  for (const chain of parameters.chains)
    states.set(chain.chainId, {
      chain,
      // Nodes serve a batch's calls in parallel only across requests: 100 calls per request,
      // 4 requests at a time (a full block costs a node far more than a receipt).
      rpc: createRpc({
        url: chain.rpcUrl,
        timeoutMs: rpcTimeoutMs,
        batchSize: 100,
        concurrency: 4,
      }),
      status: { chainId: chain.chainId, indexed: -1, head: -1, error: undefined },
      verified: false,
      genesisHash: undefined,
      lock: Promise.resolve(),
      prefetch: undefined,
      waiters: [],
      resolvingNfts: undefined,
      failures: 0,
    })
  let running = false
  let loops: Promise<void>[] = []
  const wakeups = new Set<() => void>()

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        wakeups.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      wakeups.add(done)
    })

  const serial = <T>(state: ChainState, fn: () => Promise<T>): Promise<T> => {
    const run = state.lock.then(fn, fn)
    state.lock = run.catch(() => undefined)
    return run
  }

  const fetchRange = async (state: ChainState, from: number, to: number): Promise<Range> => {
    const calls = []
    for (let n = from; n <= to; n++)
      calls.push({ method: 'eth_getBlockByNumber', params: [toHex(n), true] })
    const [blockResults, logs] = await Promise.all([
      state.rpc.batch(calls),
      getLogs(state.rpc, from, to),
    ])
    const blocks = blockResults.map((result, i) => {
      const block = unwrap(result, 'eth_getBlockByNumber') as RpcBlock | null
      if (!block) throw new RpcError(`block ${from + i} is not available yet`)
      return block
    })
    return { from, to, blocks, logs }
  }

  /** Finds the common ancestor with the chain and rolls back to it (or resets the chain). */
  const handleReorg = async (state: ChainState, cursor: ChainCursor) => {
    const { chainId } = state.chain
    const stored = await recentBlocks(db, chainId, cursor.blockNumber - keepBlocks)
    const answers = await state.rpc.batch(
      stored.map((block) => ({
        method: 'eth_getBlockByNumber',
        params: [toHex(block.number), false],
      })),
    )
    const ancestor = stored.find((block, i) => {
      const answer = answers[i]
      const hash = answer?.ok ? (answer.result as { hash?: string } | null)?.hash : undefined
      return hash?.toLowerCase() === block.hash
    })
    state.prefetch = undefined
    if (ancestor) {
      log(`${chainId}: reorg, rolling back from block ${cursor.blockNumber} to ${ancestor.number}`)
      await rollback(db, { chainId, blockNumber: ancestor.number, blockHash: ancestor.hash })
    } else {
      log(`${chainId}: the chain no longer matches the index, indexing it again from the start`)
      await resetChain(db, chainId)
    }
  }

  /** One range; returns true when there may be more to do at once. */
  const step = async (state: ChainState): Promise<boolean> => {
    const { chain, rpc } = state
    const { chainId } = chain
    if (!state.verified) {
      const reported = Number(hexToBigInt((await rpc.request('eth_chainId', [])) as Hex))
      if (`eip155:${reported}` !== chainId)
        throw new ChainIdMismatchError(`${chainId}: ${chain.rpcUrl} is chain eip155:${reported}`)
      state.verified = true
    }
    if (!state.genesisHash) {
      const genesis = (await rpc.request('eth_getBlockByNumber', ['0x0', false])) as { hash: Hex }
      state.genesisHash = genesis.hash.toLowerCase()
    }
    let cursor = await readCursor(db, chainId)
    if (cursor && cursor.genesisHash !== state.genesisHash) {
      log(
        `${chainId}: a new chain behind the same id (genesis changed), indexing it from the start`,
      )
      await resetChain(db, chainId)
      state.prefetch = undefined
      cursor = undefined
    }
    state.status.indexed = cursor?.blockNumber ?? -1
    const latest = Number(hexToBigInt((await rpc.request('eth_blockNumber', [])) as Hex))
    state.status.head = latest
    const head = latest - chain.confirmations
    const from = cursor
      ? cursor.blockNumber + 1
      : chain.startBlock === 'latest'
        ? Math.max(0, head)
        : chain.startBlock
    if (from > head) {
      state.prefetch = undefined
      if (cursor && cursor.blockNumber >= 0) {
        // Nothing new: still check that the last indexed block is still the chain's.
        const block = (await rpc.request('eth_getBlockByNumber', [
          toHex(cursor.blockNumber),
          false,
        ])) as { hash: Hex } | null
        if (block?.hash.toLowerCase() !== cursor.blockHash) {
          state.genesisHash = undefined
          await handleReorg(state, cursor)
          return true
        }
      }
      return false
    }
    const to = Math.min(head, from + batchBlocks - 1)
    const prefetched = state.prefetch?.from === from ? state.prefetch.promise : undefined
    state.prefetch = undefined
    let range = prefetched ? await prefetched.catch(() => undefined) : undefined
    if (!range || range.to > head) range = await fetchRange(state, from, to)
    // Fetch the next range while this one is decoded and written.
    if (range.to < head) {
      const nextFrom = range.to + 1
      const promise = fetchRange(state, nextFrom, Math.min(head, nextFrom + batchBlocks - 1))
      promise.catch(() => undefined)
      state.prefetch = { from: nextFrom, promise }
    }

    // The range must hang off the stored cursor and be one chain; logs must be of these blocks.
    const first = range.blocks[0]!
    if (cursor && first.parentHash.toLowerCase() !== cursor.blockHash) {
      state.genesisHash = undefined
      await handleReorg(state, cursor)
      return true
    }
    const hashes = new Map<number, string>()
    for (let i = 0; i < range.blocks.length; i++) {
      const block = range.blocks[i]!
      hashes.set(range.from + i, block.hash.toLowerCase())
      if (i > 0 && block.parentHash.toLowerCase() !== range.blocks[i - 1]!.hash.toLowerCase()) {
        state.prefetch = undefined
        return true // the chain changed while we read it: read again
      }
    }
    if (
      range.logs.some(
        (log) => hashes.get(Number(hexToBigInt(log.blockNumber))) !== log.blockHash.toLowerCase(),
      )
    ) {
      state.prefetch = undefined
      return true
    }

    const valueTxs = range.blocks.flatMap((block) =>
      block.transactions.filter((tx) => hexToBigInt(tx.value) > 0n).map((tx) => tx.hash),
    )
    const receiptResults = await rpc.batch(
      valueTxs.map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })),
    )
    const receipts = new Map<string, RpcReceipt>()
    receiptResults.forEach((result, i) => {
      const receipt = unwrap(result, 'eth_getTransactionReceipt') as RpcReceipt | null
      if (receipt) receipts.set(valueTxs[i]!.toLowerCase(), receipt)
    })
    const decoded = decodeRange({ chainId, blocks: range.blocks, logs: range.logs, receipts })
    const rows = accountRows(decoded.transfers, decoded.transactions)

    const contracts = new Map<string, 'erc20' | 'erc721'>()
    for (const transfer of decoded.transfers)
      if (transfer.kind !== 'native' && !contracts.has(transfer.token))
        contracts.set(transfer.token, transfer.kind)
    const known = await knownTokenAddresses(db, chainId, [...contracts.keys()])
    const unknown = [...contracts].filter(([address]) => !known.has(address))
    const tokens = await readTokenMetadata(
      rpc,
      chainId,
      unknown.map(([address, kind]) => ({ address, kind })),
      toHex(range.to),
    )

    const last = range.blocks.at(-1)!
    try {
      await writeRange(db, {
        chainId,
        genesisHash: state.genesisHash!,
        previous: cursor,
        next: { blockNumber: range.to, blockHash: last.hash.toLowerCase() },
        ...decoded,
        ...rows,
        tokens,
        keepBlocks,
      })
    } catch (error) {
      if (error instanceof CursorMovedError) {
        state.prefetch = undefined
        return true
      }
      throw error
    }
    state.status.indexed = range.to
    for (const waiter of state.waiters.filter((w) => w.blockNumber <= range.to)) waiter.resolve()
    state.waiters = state.waiters.filter((w) => w.blockNumber > range.to)
    if (rows.nftOwners.length) kickNfts(state)
    return range.to < head
  }

  const kickNfts = (state: ChainState) => {
    if (!nftMetadata || state.resolvingNfts) return
    state.resolvingNfts = (async () => {
      try {
        while (
          running &&
          (await resolvePendingNfts({
            db,
            rpc: state.rpc,
            chainId: state.chain.chainId,
            fetcher: nftMetadata,
          })) > 0
        );
      } catch (error) {
        log(`${state.chain.chainId}: NFT metadata: ${message(error)}`)
      } finally {
        state.resolvingNfts = undefined
      }
    })()
  }

  const loop = async (state: ChainState) => {
    let idleRounds = 0
    while (running) {
      let more = false
      try {
        more = await serial(state, () => step(state))
        if (state.failures > 0) log(`${state.chain.chainId}: indexing again`)
        state.failures = 0
        state.status.error = undefined
        // Retry metadata that failed earlier now and then (every ~30 polls).
        if (!more && ++idleRounds % 30 === 0) kickNfts(state)
      } catch (error) {
        state.failures++
        state.status.error = message(error)
        state.prefetch = undefined
        state.verified = error instanceof ChainIdMismatchError ? false : state.verified
        state.genesisHash = undefined
        if (state.failures === 1) log(`${state.chain.chainId}: ${message(error)}; retrying`)
        await sleep(Math.min(30_000, 500 * 2 ** Math.min(state.failures, 6)))
        continue
      }
      if (!more) await sleep(pollIntervalMs)
    }
  }

  return {
    start() {
      if (running) return
      running = true
      loops = [...states.values()].map((state) => {
        kickNfts(state)
        return loop(state)
      })
    },
    async stop() {
      running = false
      for (const wake of [...wakeups]) wake()
      await Promise.all(loops)
      await Promise.all([...states.values()].map((state) => state.lock))
      await Promise.all([...states.values()].map((state) => state.resolvingNfts))
      loops = []
    },
    async catchUp(chainId) {
      const state = states.get(chainId)
      if (!state) throw new Error(`${chainId} is not indexed`)
      const before = (await readCursor(db, chainId))?.blockNumber ?? -1
      while (await serial(state, () => step(state)));
      if (nftMetadata)
        while (
          (await resolvePendingNfts({ db, rpc: state.rpc, chainId, fetcher: nftMetadata })) > 0
        );
      const after = (await readCursor(db, chainId))?.blockNumber ?? -1
      return { blocks: after - before }
    },
    waitFor(chainId, blockNumber, timeoutMs = 10_000) {
      const state = states.get(chainId)
      if (!state) return Promise.reject(new Error(`${chainId} is not indexed`))
      if (state.status.indexed >= blockNumber) return Promise.resolve()
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          state.waiters = state.waiters.filter((w) => w !== waiter)
          reject(new Error(`${chainId} not indexed up to block ${blockNumber} in ${timeoutMs} ms`))
        }, timeoutMs)
        const waiter = {
          blockNumber,
          resolve: () => {
            clearTimeout(timer)
            resolve()
          },
        }
        state.waiters.push(waiter)
      })
    },
    status: () => [...states.values()].map((state) => ({ ...state.status })),
  }
}

/** `eth_getLogs` of `Transfer` over [from, to]; a refused range is split in halves. */
async function getLogs(rpc: Rpc, from: number, to: number): Promise<RpcLog[]> {
  const [answer] = await rpc.batch([
    {
      method: 'eth_getLogs',
      params: [{ fromBlock: toHex(from), toBlock: toHex(to), topics: [TRANSFER_TOPIC] }],
    },
  ])
  if (answer?.ok) return (answer.result as RpcLog[]) ?? []
  if (from === to) throw new RpcError(`eth_getLogs ${from}: ${answer?.error.message ?? 'failed'}`)
  const middle = Math.floor((from + to) / 2)
  const [left, right] = await Promise.all([
    getLogs(rpc, from, middle),
    getLogs(rpc, middle + 1, to),
  ])
  return [...left, ...right]
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
