/**
 * The devnet's Farcaster IdRegistry stand-in (`contracts/IdRegistry.sol`): fid → custody address.
 * A key of its own deploys it at its nonce 0, so it sits at `FARCASTER_ID_REGISTRY` on every
 * devnet, seeded or not, whatever the dev accounts did before.
 */
import { FARCASTER_ID_REGISTRY, FARCASTER_ID_REGISTRY_DEPLOYER } from '@porthole/shared/devnet'
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  isAddressEqual,
  parseEther,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import IdRegistry from '../artifacts/IdRegistry.json' with { type: 'json' }
import { DeployError } from './deploy.ts'

/** Options of {@link deployIdRegistry}. */
export type DeployIdRegistryParameters = {
  rpcUrl: string
  /** Receipt polling interval; default 50 ms. */
  pollingIntervalMs?: number
}

const DEPLOY_GAS = 1_000_000n

/**
 * Deploys the IdRegistry at `FARCASTER_ID_REGISTRY` (once: a chain that has it already is left
 * as it is). The deployer gets its gas with `anvil_setBalance`, so no dev account pays.
 *
 * @example
 * await deployIdRegistry({ rpcUrl: 'http://127.0.0.1:8545' }) // '0x3eC6…5543'
 */
export async function deployIdRegistry(parameters: DeployIdRegistryParameters): Promise<Address> {
  const { rpcUrl, pollingIntervalMs = 50 } = parameters
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: pollingIntervalMs })
  const existing = await client.getCode({ address: FARCASTER_ID_REGISTRY })
  if (existing && existing !== '0x') return FARCASTER_ID_REGISTRY
  const account = privateKeyToAccount(FARCASTER_ID_REGISTRY_DEPLOYER.privateKey)
  await client.request({
    method: 'anvil_setBalance' as never,
    params: [account.address, toHex(parseEther('1'))] as never,
  })
  const [chainId, nonce, fees] = await Promise.all([
    client.getChainId(),
    client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
  ])
  if (nonce !== 0)
    throw new DeployError(
      `The IdRegistry deployer has nonce ${nonce}: the registry would not land at ${FARCASTER_ID_REGISTRY}`,
    )
  const hash = await client.sendRawTransaction({
    serializedTransaction: await account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce,
      data: IdRegistry.bytecode as Hex,
      gas: DEPLOY_GAS,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    }),
  })
  const receipt = await client.waitForTransactionReceipt({
    hash,
    pollingInterval: pollingIntervalMs,
  })
  if (
    receipt.status !== 'success' ||
    !receipt.contractAddress ||
    !isAddressEqual(receipt.contractAddress, FARCASTER_ID_REGISTRY)
  )
    throw new DeployError(
      `The IdRegistry deployed at ${receipt.contractAddress ?? 'nowhere'}, expected ${FARCASTER_ID_REGISTRY}`,
    )
  return FARCASTER_ID_REGISTRY
}
