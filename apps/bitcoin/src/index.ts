/**
 * `@porthole/bitcoin`: the local Bitcoin regtest of the stack. Debian ships no bitcoind and npm
 * no Bitcoin Core binary, so this is an in-process stand-in: a UTXO set and a chain of blocks
 * from regtest's real genesis that accepts real signed transactions (P2WPKH and P2TR key
 * path, signatures checked) and serves them through an Esplora-style REST API.
 */
import type { AddressInfo } from 'node:net'
import {
  BITCOIN_TEST_ACCOUNT_BALANCE_SATS,
  BITCOIN_TEST_ACCOUNTS,
  endpoints,
  listenHostOf,
  portOf,
} from '@porthole/shared'
import { type Chain, createChain } from './Chain.ts'
import { createEsploraServer } from './server.ts'

export { addressOf, normalizeAddress, scriptOf } from './address.ts'
export {
  type Chain,
  type ChainBlock,
  type ChainInput,
  type ChainOutput,
  type ChainTransaction,
  type CreateChainParameters,
  createChain,
  MAX_MONEY,
  type Spend,
  type Utxo,
} from './Chain.ts'
export { RPC_ERROR, TransactionRejectedError } from './errors.ts'
export { type CreateEsploraServerParameters, createEsploraServer } from './server.ts'
export { type Prevout, type VerifyInputParameters, verifyInput } from './verifyInput.ts'

/** Options of {@link startBitcoin}. */
export type StartBitcoinParameters = {
  /** Port; default the port of `endpoints().bitcoin` (18443). 0 picks a free one. */
  port?: number
  /** Interface; default the host of `endpoints().bitcoin` (127.0.0.1). */
  host?: string
  /** Print nothing; default false (a line per transaction, prefixed `[bitcoin]`). */
  silent?: boolean
  /** Pay the test accounts at start (block 1); default true. */
  fund?: boolean
}

/** A running regtest. */
export type StartBitcoinReturnType = {
  /** Base URL of its Esplora API, e.g. `http://127.0.0.1:18443`. */
  url: string
  /** Its state, for tests that look inside. */
  chain: Chain
  /** Stops listening; resolves once closed. Safe to call twice. */
  stop(): Promise<void>
}

/**
 * Starts the regtest with the payment address of each `BITCOIN_TEST_ACCOUNTS` entry holding
 * 1 BTC (one coinbase in block 1), and serves its Esplora API.
 *
 * @example
 * const bitcoin = await startBitcoin({ port: 0, silent: true })
 * await fetch(`${bitcoin.url}/blocks/tip/height`).then((r) => r.text()) // '1'
 * await bitcoin.stop()
 */
export async function startBitcoin(
  parameters: StartBitcoinParameters = {},
): Promise<StartBitcoinReturnType> {
  const defaultUrl = endpoints().bitcoin
  const { port = portOf(defaultUrl), host = listenHostOf(defaultUrl), silent = false } = parameters
  const chain = createChain()
  if (parameters.fund ?? true)
    chain.fund(
      BITCOIN_TEST_ACCOUNTS.map((account) => ({
        address: account.payment.address,
        sats: BITCOIN_TEST_ACCOUNT_BALANCE_SATS,
      })),
    )
  const server = createEsploraServer({
    chain,
    log: silent ? () => {} : (line) => console.log(`[bitcoin] ${line}`),
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port: bound } = server.address() as AddressInfo
  const urlHost = host.includes(':') ? `[${host}]` : host
  let closing: Promise<void> | undefined
  return {
    url: `http://${urlHost}:${bound}`,
    chain,
    stop: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    },
  }
}
