/**
 * Phase (d): the replica holding the indexer lock (`porthole_indexer_leader` 1) is killed while
 * the devnet keeps producing blocks (ETH and pUSD transfers between test accounts). Another
 * replica must take over within 10 s, and PostgreSQL must then hold every block of the window
 * exactly once with the chain's hash, and every transfer sent exactly once.
 */
import { prodControl } from '@porthole/local-stack/prod'
import {
  blockNumber,
  type ChainBlock,
  erc20Transfer,
  getBlock,
  LOADTEST_ACCOUNTS,
  psql,
  send,
} from '../chain.js'
import { type LoadtestContext, type PhaseResult, sleep, target } from '../context.js'
import { scrape, sumMetric } from '../metrics.js'

const CHAIN = 'eip155:31337'
const TAKEOVER_LIMIT_MS = 10_000

type Leaders = { id: string; leader: number | undefined; lastBlock: number | undefined }[]

async function leaders(context: LoadtestContext): Promise<Leaders> {
  return Promise.all(
    context.state.replicas.map(async (replica) => {
      const samples = await scrape(replica.url, 1000)
      return {
        id: replica.id,
        leader: samples ? sumMetric(samples, 'porthole_indexer_leader') : undefined,
        lastBlock: samples
          ? sumMetric(samples, 'porthole_indexer_last_block', { chain: CHAIN })
          : undefined,
      }
    }),
  )
}

/**
 * Runs phase (d).
 *
 * @example
 * const result = await leaderPhase(context)
 */
export async function leaderPhase(context: LoadtestContext): Promise<PhaseResult> {
  const { state, log, controlUrl } = context
  const rpcUrl = state.urls.devnet
  const token = state.tokens.find((t) => t.chainId === 31337 && t.symbol === 'pUSD')
  if (!token) throw new Error('No pUSD on the devnet')

  let current: Leaders = []
  for (let i = 0; i < 100; i++) {
    current = await leaders(context)
    if (current.filter((r) => r.leader === 1).length === 1) break
    await sleep(200)
  }
  const holders = current.filter((r) => r.leader === 1)
  if (holders.length !== 1)
    return {
      phase: 'd. indexer leader killed',
      figures: { leaders: current },
      targets: [target('one leader', '1', String(holders.length), false)],
    }
  const old = holders[0] as Leaders[number]
  const firstBlock = (await blockNumber(rpcUrl)) + 1

  // Blocks keep coming while the leader dies and another takes over.
  let producing = true
  const sent: { hash: string; blockNumber: number; kind: 'eth' | 'erc20' }[] = []
  const producer = (async () => {
    for (let i = 0; producing; i++) {
      const [from, to] = (i % 4 < 2 ? LOADTEST_ACCOUNTS : [...LOADTEST_ACCOUNTS].reverse()) as [
        string,
        string,
      ]
      const tx =
        i % 2 === 0
          ? await send(rpcUrl, { from, to, value: 1_000_000_000_000n + BigInt(i) })
          : await send(rpcUrl, {
              from,
              to: token.address,
              data: erc20Transfer(to, 1_000n + BigInt(i)),
            })
      sent.push({ ...tx, kind: i % 2 === 0 ? 'eth' : 'erc20' })
      await sleep(200)
    }
  })()
  await sleep(1500)
  const killedAt = Date.now()
  await prodControl(`/replicas/${old.id}/kill?hold=1`, controlUrl)
  log(
    `SIGKILL ${old.id}, the indexer leader (held down until the check is done); blocks keep coming`,
  )
  let takeoverMs: number | undefined
  let successor: string | undefined
  while (Date.now() - killedAt < 30_000) {
    const now = await leaders(context)
    const next = now.find((r) => r.id !== old.id && r.leader === 1)
    if (next) {
      takeoverMs = Date.now() - killedAt
      successor = next.id
      break
    }
    await sleep(100)
  }
  log(
    takeoverMs === undefined
      ? 'no replica took the indexer over within 30 s'
      : `${successor} took the indexer over ${(takeoverMs / 1000).toFixed(2)} s after the kill`,
  )
  await sleep(3000)
  producing = false
  await producer
  const lastBlock = await blockNumber(rpcUrl)
  // The new leader catches up.
  let caughtUp = false
  for (let i = 0; i < 300 && successor; i++) {
    const now = await leaders(context)
    if ((now.find((r) => r.id === successor)?.lastBlock ?? 0) >= lastBlock) {
      caughtUp = true
      break
    }
    await sleep(100)
  }
  await prodControl(`/replicas/${old.id}/start`, controlUrl)

  // What PostgreSQL holds for the window, against the chain.
  const chain: ChainBlock[] = []
  for (let number = firstBlock; number <= lastBlock; number++)
    chain.push(await getBlock(rpcUrl, number))
  const url = state.databaseUrl
  const stored = new Map(
    psql(
      url,
      `SELECT number, hash FROM chain_blocks WHERE chain_id = '${CHAIN}' AND number BETWEEN ${firstBlock} AND ${lastBlock} ORDER BY number`,
    ).map(([number, hash]) => [Number(number), hash]),
  )
  const missing = chain.filter((b) => !stored.has(b.number)).map((b) => b.number)
  const wrongHash = chain
    .filter((b) => stored.has(b.number) && stored.get(b.number) !== b.hash)
    .map((b) => b.number)
  const [cursor] = psql(
    url,
    `SELECT block_number, block_hash FROM chain_cursors WHERE chain_id = '${CHAIN}'`,
  )
  const txRows = psql(
    url,
    `SELECT hash, block_number, count(*) OVER (PARTITION BY hash) FROM chain_transactions WHERE chain_id = '${CHAIN}' AND block_number BETWEEN ${firstBlock} AND ${lastBlock}`,
  )
  const transferRows = psql(
    url,
    `SELECT tx_hash, count(*) FROM chain_transfers WHERE chain_id = '${CHAIN}' AND block_number BETWEEN ${firstBlock} AND ${lastBlock} GROUP BY tx_hash`,
  )
  const storedTx = new Map(
    txRows.map(([hash, block, count]) => [
      hash as string,
      { block: Number(block), count: Number(count) },
    ]),
  )
  const transfersPerTx = new Map(
    transferRows.map(([hash, count]) => [hash as string, Number(count)]),
  )
  const chainTxs = new Map(
    chain.flatMap((b) => b.transactions.map((tx) => [tx.hash, b.number] as const)),
  )
  const sentMissing = sent.filter((tx) => !storedTx.has(tx.hash)).map((tx) => tx.hash)
  const sentTwice = sent
    .filter(
      (tx) => (storedTx.get(tx.hash)?.count ?? 0) > 1 || (transfersPerTx.get(tx.hash) ?? 0) !== 1,
    )
    .map((tx) => tx.hash)
  const wrongBlock = sent
    .filter((tx) => storedTx.has(tx.hash) && storedTx.get(tx.hash)?.block !== tx.blockNumber)
    .map((tx) => tx.hash)
  const notOnChain = [...storedTx.keys()].filter((hash) => !chainTxs.has(hash))
  log(
    `window: blocks ${firstBlock}–${lastBlock} (${chain.length}), ${sent.length} transfers sent; stored: ${stored.size} blocks, ${storedTx.size} transactions, cursor ${cursor?.[0] ?? 'none'}; missing blocks ${missing.length}, wrong hashes ${wrongHash.length}, transfers missing ${sentMissing.length}, twice or wrong count ${sentTwice.length}, in a wrong block ${wrongBlock.length}, not on chain ${notOnChain.length}`,
  )
  const cursorOk = cursor !== undefined && Number(cursor[0]) >= lastBlock
  return {
    phase: 'd. indexer leader killed',
    figures: {
      oldLeader: old.id,
      successor,
      takeoverMs,
      window: { firstBlock, lastBlock, blocks: chain.length, transfersSent: sent.length },
      stored: { blocks: stored.size, transactions: storedTx.size, cursor },
      missing,
      wrongHash,
      sentMissing,
      sentTwice,
      wrongBlock,
      notOnChain,
    },
    targets: [
      target(
        'takeover by another replica',
        `≤ ${TAKEOVER_LIMIT_MS / 1000} s`,
        takeoverMs === undefined
          ? 'none in 30 s'
          : `${(takeoverMs / 1000).toFixed(2)} s (${successor})`,
        takeoverMs !== undefined && takeoverMs <= TAKEOVER_LIMIT_MS,
      ),
      target(
        'caught up with the chain',
        `block ${lastBlock}`,
        caughtUp && cursorOk ? 'yes' : `cursor ${cursor?.[0]}`,
        caughtUp && cursorOk,
      ),
      target(
        'blocks skipped',
        '0',
        String(missing.length + wrongHash.length),
        missing.length + wrongHash.length === 0,
      ),
      target(
        'transfers skipped or indexed twice',
        '0',
        String(sentMissing.length + sentTwice.length + wrongBlock.length + notOnChain.length),
        sentMissing.length + sentTwice.length + wrongBlock.length + notOnChain.length === 0,
      ),
    ],
  }
}
