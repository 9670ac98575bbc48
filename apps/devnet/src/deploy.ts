/**
 * Deploys the devnet's test ERC-20 tokens from dev account 0 and funds every dev account.
 */

import { DEVNET_TOKENS } from '@porthole/shared/devnet'
import {
  type Address,
  createPublicClient,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  isAddressEqual,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import TestERC20 from '../artifacts/TestERC20.json' with { type: 'json' }
import { testErc20Abi } from './abi/erc20.ts'
import { DEPLOYER, DEV_ACCOUNTS } from './accounts.ts'

/** A deployed test token. */
export type TestToken = {
  address: Address
  name: string
  symbol: string
  decimals: number
}

/**
 * The test tokens, in deployment order, with the address each gets on a fresh chain
 * (dev account 0, nonces 0 and 1) — the same on every devnet, whatever its chain id.
 *
 * @example
 * const pUSD = TEST_TOKENS[0] // { name: 'Porthole USD', symbol: 'pUSD', decimals: 6, address: '0x5FbD…' }
 */
export const TEST_TOKENS = DEVNET_TOKENS satisfies readonly TestToken[]

/**
 * Whole tokens of each test token minted to each dev account.
 *
 * @example
 * parseUnits(TEST_TOKEN_GRANT, 6) // pUSD base units each dev account holds
 */
export const TEST_TOKEN_GRANT = '1000000'

/** Options of {@link deployTestTokens}. */
export type DeployTestTokensParameters = {
  rpcUrl: string
  /** Who receives {@link TEST_TOKEN_GRANT} of each token; default the 10 dev accounts. */
  recipients?: readonly Address[]
  /** Receipt polling interval; default 50 ms (matters only with interval mining). */
  pollingIntervalMs?: number
}

/** Error thrown when a deployment or mint transaction fails or lands at an unexpected address. */
export class DeployError extends Error {
  override name = 'DeployError'
}

const DEPLOY_GAS = 2_000_000n
const MINT_GAS = 120_000n

/**
 * Deploys {@link TEST_TOKENS} from dev account 0 and mints {@link TEST_TOKEN_GRANT} of each
 * to every dev account. All transactions are signed locally with consecutive nonces and sent
 * at once, then their receipts are awaited. On a fresh chain the addresses are checked
 * against {@link TEST_TOKENS}.
 *
 * @example
 * const tokens = await deployTestTokens({ rpcUrl: 'http://127.0.0.1:8545' })
 * tokens[1].symbol // 'PRT'
 */
export async function deployTestTokens(
  parameters: DeployTestTokensParameters,
): Promise<TestToken[]> {
  const {
    rpcUrl,
    recipients = DEV_ACCOUNTS.map((a) => a.address),
    pollingIntervalMs = 50,
  } = parameters
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: pollingIntervalMs })
  const account = privateKeyToAccount(DEPLOYER.privateKey)
  const [chainId, startNonce, fees] = await Promise.all([
    client.getChainId(),
    client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
  ])

  let nonce = startNonce
  const send = async (tx: { to?: Address; data: Hex; gas: bigint }) => {
    const serialized = await account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce: nonce++,
      ...(tx.to ? { to: tx.to } : {}),
      data: tx.data,
      gas: tx.gas,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    })
    return client.sendRawTransaction({ serializedTransaction: serialized })
  }

  const tokens: TestToken[] = []
  const hashes: Hex[] = []
  for (const token of TEST_TOKENS) {
    const address = getContractAddress({ from: account.address, nonce: BigInt(nonce) })
    hashes.push(
      await send({
        data: encodeDeployData({
          abi: testErc20Abi,
          bytecode: TestERC20.bytecode as Hex,
          args: [token.name, token.symbol, token.decimals],
        }),
        gas: DEPLOY_GAS,
      }),
    )
    if (startNonce === 0 && !isAddressEqual(address, token.address))
      throw new DeployError(`${token.symbol} would deploy at ${address}, expected ${token.address}`)
    tokens.push({ address, name: token.name, symbol: token.symbol, decimals: token.decimals })
  }
  for (const token of tokens)
    for (const to of recipients)
      hashes.push(
        await send({
          to: token.address,
          data: encodeFunctionData({
            abi: testErc20Abi,
            functionName: 'mint',
            args: [to, parseUnits(TEST_TOKEN_GRANT, token.decimals)],
          }),
          gas: MINT_GAS,
        }),
      )

  const receipts = await Promise.all(
    hashes.map((hash) =>
      client.waitForTransactionReceipt({ hash, pollingInterval: pollingIntervalMs }),
    ),
  )
  const failed = receipts.find((receipt) => receipt.status !== 'success')
  if (failed) throw new DeployError(`Transaction ${failed.transactionHash} reverted`)
  tokens.forEach((token, i) => {
    const deployed = receipts[i]?.contractAddress
    if (!deployed || !isAddressEqual(deployed, token.address))
      throw new DeployError(`${token.symbol} deployed at ${deployed}, expected ${token.address}`)
  })
  return tokens
}
