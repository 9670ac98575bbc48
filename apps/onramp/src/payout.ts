/**
 * Sends what a checkout bought from the provider's treasury: an ERC-20 transfer (pUSD) or plain
 * ether, on the order's devnet, and waits for the receipt. Sends from one treasury are queued
 * per network, so concurrent payouts never reuse a nonce.
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  formatUnits,
  type Hex,
  http,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { NETWORKS, type NetworkId, type PurchaseCurrency } from './offering.js'

/** Options of {@link createPayout}. */
export type CreatePayoutParameters = {
  /** JSON-RPC URL per devnet; a network left out cannot be paid on. */
  rpcUrls: Readonly<Partial<Record<NetworkId, string>>>
  /** The treasury's key. */
  treasuryKey: Hex
  /** Receipt polling interval; default 100 ms. */
  pollingIntervalMs?: number
  /** How long to wait for a receipt; default 60 s. */
  receiptTimeoutMs?: number
}

/** One payout. */
export type PayoutParameters = {
  network: NetworkId
  token: PurchaseCurrency
  to: Address
  /** Base units. */
  amount: bigint
  /** Called with the transaction hash once it is sent (before the receipt). */
  onSent?: (hash: Hex) => void
}

/** A payout that could not be made (or reverted); `message` says why, for the buyer. */
export class PayoutError extends Error {
  override name = 'PayoutError' as const
}

/**
 * A payer from the treasury.
 *
 * @example
 * const payout = createPayout({ rpcUrls: { 'eip155:31337': devnet.rpcUrl }, treasuryKey })
 * const hash = await payout.send({ network: 'eip155:31337', token: PURCHASE_CURRENCIES.USDC, to, amount: 49_150_000n })
 */
export function createPayout(parameters: CreatePayoutParameters) {
  const account = privateKeyToAccount(parameters.treasuryKey)
  const pollingInterval = parameters.pollingIntervalMs ?? 100
  const queues = new Map<NetworkId, Promise<unknown>>()
  const clients = new Map<NetworkId, ReturnType<typeof clientsFor>>()
  const clientsFor = (rpcUrl: string) => ({
    read: createPublicClient({ transport: http(rpcUrl), pollingInterval }),
    write: createWalletClient({ account, transport: http(rpcUrl) }),
  })
  /** Runs `task` after the network's earlier sends. */
  const queued = <T>(network: NetworkId, task: () => Promise<T>): Promise<T> => {
    const run = (queues.get(network) ?? Promise.resolve()).then(task, task)
    queues.set(
      network,
      run.catch(() => undefined),
    )
    return run
  }
  return {
    /** The treasury's address. */
    address: account.address,
    /** Sends `amount` of `token` to `to` and waits until it is mined; the transaction hash. */
    async send({ network, token, to, amount, onSent }: PayoutParameters): Promise<Hex> {
      const rpcUrl = parameters.rpcUrls[network]
      if (!rpcUrl) throw new PayoutError(`Payouts on ${network} are not configured`)
      let pair = clients.get(network)
      if (!pair) {
        pair = clientsFor(rpcUrl)
        clients.set(network, pair)
      }
      const { read, write } = pair
      const where = NETWORKS[network].display_name
      const hash = await queued(network, async () => {
        const held = token.token
          ? await read.readContract({
              address: token.token,
              abi: erc20Abi,
              functionName: 'balanceOf',
              args: [account.address],
            })
          : await read.getBalance({ address: account.address })
        if (held < amount)
          throw new PayoutError(
            `The provider's treasury holds ${formatUnits(held, token.decimals)} ${token.symbol} on ${where}, less than the ${formatUnits(amount, token.decimals)} bought`,
          )
        return token.token
          ? write.writeContract({
              chain: null,
              address: token.token,
              abi: erc20Abi,
              functionName: 'transfer',
              args: [to, amount],
            })
          : write.sendTransaction({ chain: null, to, value: amount })
      }).catch((error: unknown) => {
        if (error instanceof PayoutError) throw error
        throw new PayoutError(`The transfer could not be sent on ${where}`, { cause: error })
      })
      onSent?.(hash)
      const receipt = await read
        .waitForTransactionReceipt({ hash, timeout: parameters.receiptTimeoutMs ?? 60_000 })
        .catch((error: unknown) => {
          throw new PayoutError(`The transfer ${hash} was not mined on ${where}`, { cause: error })
        })
      if (receipt.status !== 'success')
        throw new PayoutError(`The transfer ${hash} reverted on ${where}`)
      return hash
    },
  }
}

/** The payer's type. */
export type Payout = ReturnType<typeof createPayout>
