/**
 * Funds the local on-ramp provider's treasury (`ONRAMP_TREASURY`), which pays out what a
 * checkout buys on the devnets: ETH by `anvil_setBalance`, pUSD and PRT minted by dev account 0.
 */
import { ONRAMP_TREASURY } from '@porthole/shared/devnet'
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  parseEther,
  parseUnits,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { testErc20Abi } from './abi/erc20.ts'
import { DEPLOYER } from './accounts.ts'
import { DeployError, TEST_TOKENS } from './deploy.ts'

/**
 * What the treasury holds after {@link fundOnrampTreasury}: whole ETH, and whole units of each
 * test token.
 *
 * @example
 * parseEther(ONRAMP_TREASURY_FUNDS.eth) // its ETH balance in wei
 */
export const ONRAMP_TREASURY_FUNDS = { eth: '100000', tokens: '10000000' } as const

/** Options of {@link fundOnrampTreasury}. */
export type FundOnrampTreasuryParameters = {
  rpcUrl: string
  /** Receipt polling interval; default 50 ms. */
  pollingIntervalMs?: number
}

/**
 * Tops the treasury up to {@link ONRAMP_TREASURY_FUNDS} (so calling it twice mints nothing more):
 * ETH with `anvil_setBalance`, pUSD and PRT minted by dev account 0 (needs the test tokens).
 *
 * @example
 * await fundOnrampTreasury({ rpcUrl: 'http://127.0.0.1:8545' }) // '0x8963…1485'
 */
export async function fundOnrampTreasury(
  parameters: FundOnrampTreasuryParameters,
): Promise<Address> {
  const { rpcUrl, pollingIntervalMs = 50 } = parameters
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: pollingIntervalMs })
  const owner = privateKeyToAccount(DEPLOYER.privateKey)
  const eth = parseEther(ONRAMP_TREASURY_FUNDS.eth)
  const [chainId, nonce, fees, ethBalance, tokenBalances] = await Promise.all([
    client.getChainId(),
    client.getTransactionCount({ address: owner.address, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
    client.getBalance({ address: ONRAMP_TREASURY.address }),
    Promise.all(
      TEST_TOKENS.map((token) =>
        client.readContract({
          address: token.address,
          abi: testErc20Abi,
          functionName: 'balanceOf',
          args: [ONRAMP_TREASURY.address],
        }),
      ),
    ),
  ])
  if (ethBalance < eth)
    await client.request({
      method: 'anvil_setBalance' as never,
      params: [ONRAMP_TREASURY.address, toHex(eth)] as never,
    })
  const hashes: Hex[] = []
  let next = nonce
  for (const [i, token] of TEST_TOKENS.entries()) {
    const short = parseUnits(ONRAMP_TREASURY_FUNDS.tokens, token.decimals) - tokenBalances[i]!
    if (short <= 0n) continue
    const serialized = await owner.signTransaction({
      type: 'eip1559',
      chainId,
      nonce: next++,
      to: token.address,
      data: encodeFunctionData({
        abi: testErc20Abi,
        functionName: 'mint',
        args: [ONRAMP_TREASURY.address, short],
      }),
      gas: 120_000n,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    })
    hashes.push(await client.sendRawTransaction({ serializedTransaction: serialized }))
  }
  const receipts = await Promise.all(
    hashes.map((hash) =>
      client.waitForTransactionReceipt({ hash, pollingInterval: pollingIntervalMs }),
    ),
  )
  const failed = receipts.find((receipt) => receipt.status !== 'success')
  if (failed) throw new DeployError(`Treasury mint ${failed.transactionHash} reverted`)
  return ONRAMP_TREASURY.address
}
