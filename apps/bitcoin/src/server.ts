/**
 * The Esplora-style REST API over a {@link Chain} (node:http), CORS open to every origin, plus
 * the test-only `POST /faucet`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { hex } from '@scure/base'
import { normalizeAddress } from './address.ts'
import { type Chain, MAX_MONEY } from './Chain.ts'
import { TransactionRejectedError } from './errors.ts'
import {
  addressJson,
  blockJson,
  FEE_ESTIMATES,
  statusJson,
  transactionJson,
  utxosJson,
} from './esplora.ts'

/** Largest request body: a hex transaction of up to 1 MB. */
const MAX_BODY = 2_000_000
/** Page size of `/address/:address/txs` (Esplora's confirmed page). */
const TXS_PAGE = 25

/** Options of {@link createEsploraServer}. */
export type CreateEsploraServerParameters = {
  chain: Chain
  /** Called with a line per accepted or refused transaction and faucet payment. */
  log?: (line: string) => void
}

/** Answered as `status` with a text body. */
class HttpError extends Error {
  override name = 'HttpError' as const
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

const TXID = /^[0-9a-fA-F]{64}$/

/**
 * An HTTP server answering the Esplora routes: `GET /blocks/tip/height`, `/blocks/tip/hash`,
 * `/blocks[/:start]`, `/block/:hash`, `/block/:hash/txids`, `/block-height/:height`,
 * `/address/:address`, `/address/:address/utxo`, `/address/:address/txs`,
 * `/address/:address/txs/chain[/:last_seen_txid]`, `/address/:address/txs/mempool`,
 * `/tx/:txid`, `/tx/:txid/hex`, `/tx/:txid/status`, `/tx/:txid/outspends`, `/fee-estimates`;
 * `POST /tx` (raw hex → txid, 400 with bitcoind's reason on refusal); and `POST /faucet`
 * `{ address, sats }` → `{ txid, blockHeight }` (a coinbase paying `sats` to `address`).
 *
 * @example
 * const server = createEsploraServer({ chain: createChain() })
 * server.listen(0, '127.0.0.1')
 */
export function createEsploraServer({
  chain,
  log = () => {},
}: CreateEsploraServerParameters): Server {
  const txOf = (txid: string) => {
    const tx = TXID.test(txid) ? chain.transaction(txid) : undefined
    if (!tx) throw new HttpError(404, 'Transaction not found')
    return tx
  }
  const blockOf = (hash: string) => {
    const block = TXID.test(hash) ? chain.block(hash) : undefined
    if (!block) throw new HttpError(404, 'Block not found')
    return block
  }
  const addressOf = (text: string) => {
    const address = normalizeAddress(decodeURIComponent(text))
    if (!address) throw new HttpError(400, 'Invalid Bitcoin address')
    return address
  }
  const txsAfter = (address: string, lastSeen: string | undefined) => {
    const txs = chain.transactionsOf(address).reverse()
    const start = lastSeen ? txs.findIndex((tx) => tx.txid === lastSeen.toLowerCase()) + 1 : 0
    if (lastSeen && start === 0) return []
    return txs.slice(start, start + TXS_PAGE).map((tx) => transactionJson(chain, tx))
  }

  const get = (path: string[]): unknown => {
    const [head, a, b, c] = path
    if (head === 'blocks' && a === 'tip' && b === 'height' && !c) return String(chain.tip().height)
    if (head === 'blocks' && a === 'tip' && b === 'hash' && !c) return chain.tip().hash
    if (head === 'blocks' && !b) {
      const start = a === undefined ? chain.tip().height : Number(a)
      if (!Number.isInteger(start) || start < 0) throw new HttpError(400, 'Invalid height')
      const out = []
      for (let h = Math.min(start, chain.tip().height); h >= 0 && out.length < 10; h--)
        out.push(blockJson(chain, chain.blockAt(h)!))
      return out
    }
    if (head === 'block' && a && !b) return blockJson(chain, blockOf(a))
    if (head === 'block' && a && b === 'txids' && !c) return blockOf(a).txids
    if (head === 'block-height' && a && !b) {
      const block = /^\d+$/.test(a) ? chain.blockAt(Number(a)) : undefined
      if (!block) throw new HttpError(404, 'Block not found')
      return block.hash
    }
    if (head === 'address' && a) {
      const address = addressOf(a)
      if (!b) return addressJson(chain, address)
      if (b === 'utxo' && !c) return utxosJson(chain, address)
      if (b === 'txs' && !c) return txsAfter(address, undefined)
      if (b === 'txs' && c === 'mempool' && path.length === 4) return []
      if (b === 'txs' && c === 'chain' && path.length <= 5) return txsAfter(address, path[4])
    }
    if (head === 'tx' && a) {
      const tx = txOf(a)
      if (!b) return transactionJson(chain, tx)
      if (b === 'hex' && !c) return hex.encode(tx.raw)
      if (b === 'status' && !c) return statusJson(chain, tx.blockHeight)
      if (b === 'outspends' && !c)
        return tx.outputs.map((_, vout) => {
          const spend = chain.spentBy(tx.txid, vout)
          if (!spend) return { spent: false }
          return {
            spent: true,
            txid: spend.txid,
            vin: spend.vin,
            status: statusJson(chain, chain.transaction(spend.txid)!.blockHeight),
          }
        })
    }
    if (head === 'fee-estimates' && !a) return FEE_ESTIMATES
    throw new HttpError(404, 'Not found')
  }

  const postTx = (body: string): string => {
    const text = body.trim()
    if (!/^([0-9a-fA-F]{2})+$/.test(text))
      throw new HttpError(
        400,
        'sendrawtransaction RPC error: {"code":-22,"message":"TX decode failed"}',
      )
    try {
      const tx = chain.submit(hex.decode(text.toLowerCase()))
      log(`accepted ${tx.txid} in block ${tx.blockHeight} (fee ${tx.fee} sats)`)
      return tx.txid
    } catch (error) {
      if (!(error instanceof TransactionRejectedError)) throw error
      log(`refused a transaction: ${error.reason}`)
      throw new HttpError(400, error.message)
    }
  }

  const postFaucet = (body: string) => {
    let input: { address?: unknown; sats?: unknown }
    try {
      input = JSON.parse(body) as typeof input
    } catch {
      throw new HttpError(400, 'Body must be JSON: { "address": "bcrt1…", "sats": 100000 }')
    }
    const address = typeof input?.address === 'string' ? normalizeAddress(input.address) : undefined
    if (!address) throw new HttpError(400, 'Invalid Bitcoin address')
    const sats =
      (typeof input.sats === 'number' && Number.isSafeInteger(input.sats)) ||
      (typeof input.sats === 'string' && /^\d{1,16}$/.test(input.sats))
        ? BigInt(input.sats as number | string)
        : -1n
    if (sats <= 0n || sats > MAX_MONEY)
      throw new HttpError(400, 'sats must be a whole number from 1 to 2100000000000000')
    const tx = chain.fund([{ address, sats }])
    log(`faucet paid ${sats} sats to ${address} (${tx.txid})`)
    return { txid: tx.txid, blockHeight: tx.blockHeight }
  }

  return createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://regtest')
      const path = url.pathname.split('/').filter(Boolean)
      if (request.method === 'OPTIONS') return send(response, 204, '')
      if (request.method === 'GET' || request.method === 'HEAD')
        return send(response, 200, get(path))
      if (request.method === 'POST' && path.join('/') === 'tx')
        return send(response, 200, postTx(await readBody(request)))
      if (request.method === 'POST' && path.join('/') === 'faucet')
        return send(response, 200, postFaucet(await readBody(request)))
      throw new HttpError(404, 'Not found')
    } catch (error) {
      if (error instanceof HttpError) return send(response, error.status, error.message)
      log(`internal error: ${(error as Error)?.stack ?? error}`)
      return send(response, 500, 'Internal error')
    }
  })
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  response.writeHead(status, {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'content-type',
    'access-control-max-age': '600',
    'cache-control': 'no-store',
    'content-type':
      typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
  })
  response.end(response.req.method === 'HEAD' ? undefined : text)
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY) throw new HttpError(413, 'Request body too large')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}
