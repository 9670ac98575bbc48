/**
 * `@porthole/devnet`: local EVM devnets (anvil) with Porthole's test tokens, the Farcaster
 * IdRegistry stand-in, a Uniswap V2 AMM and the ERC-4337 v0.7 stack deployed.
 */
import type { Address } from 'viem'
import { type DeployAccountAbstractionReturnType, deployAccountAbstraction } from './aa.ts'
import { type DeployAmmReturnType, deployAmm } from './amm.ts'
import { type StartAnvilParameters, startAnvil } from './anvil.ts'
import { DEVNET_CHAIN_ID } from './chain.ts'
import { deployTestTokens, type TestToken } from './deploy.ts'
import { deployIdRegistry } from './idRegistry.ts'
import { fundOnrampTreasury } from './onrampTreasury.ts'
import { type SeedDevnetReturnType, seedDevnet, seedGenesisTimestamp } from './seed.ts'

// The SimpleAccount adapter is shared with the wallet frame (`@porthole/shared`).
export {
  simpleAccountAbi,
  simpleAccountFactoryAbi,
  type ToSimpleAccountParameters,
  type ToSimpleAccountReturnType as SimpleAccount,
  toSimpleAccount,
} from '@porthole/shared/simpleAccount'
export {
  AA_FUNDS,
  type DeployAccountAbstractionParameters,
  type DeployAccountAbstractionReturnType,
  deployAccountAbstraction,
  ENTRY_POINT_07_SENDER_CREATOR_OFFSETS,
  entryPoint07RuntimeCode,
} from './aa.ts'
export { testErc20Abi } from './abi/erc20.ts'
export { testErc721Abi } from './abi/erc721.ts'
export { idRegistryAbi } from './abi/idRegistry.ts'
export {
  DEPLOYER,
  DEV_ACCOUNT_BALANCE_ETH,
  DEV_ACCOUNTS,
  DEV_MNEMONIC,
  type DevAccount,
} from './accounts.ts'
export {
  AMM_PAIR_INIT_CODE_HASH,
  AMM_POOLS,
  type AmmAsset,
  type AmmPair,
  type AmmPool,
  ammPairAddress,
  type DeployAmmParameters,
  type DeployAmmReturnType,
  deployAmm,
} from './amm.ts'
export {
  AnvilPortInUseError,
  AnvilStartError,
  anvilBinary,
  type StartAnvilParameters,
  type StartAnvilReturnType,
  startAnvil,
} from './anvil.ts'
export {
  DEVNET_B_CHAIN_ID,
  DEVNET_CHAIN_ID,
  type DevnetChainParameters,
  devnetChain,
} from './chain.ts'
export {
  DeployError,
  type DeployTestTokensParameters,
  deployTestTokens,
  TEST_TOKEN_GRANT,
  TEST_TOKENS,
  type TestToken,
} from './deploy.ts'
export { type DeployIdRegistryParameters, deployIdRegistry } from './idRegistry.ts'
export {
  type FundOnrampTreasuryParameters,
  fundOnrampTreasury,
  ONRAMP_TREASURY_FUNDS,
} from './onrampTreasury.ts'
export {
  SEED_COLLECTIONS,
  SEED_FIRST_NONCE,
  SEED_GENESIS_AGE_DAYS,
  type SeedCollection,
  type SeedDevnetParameters,
  type SeedDevnetReturnType,
  SeedError,
  seedDevnet,
  seedGenesisTimestamp,
  seedPlan,
} from './seed.ts'

/** Options of {@link startDevnet}. */
export type StartDevnetParameters = Partial<StartAnvilParameters> & {
  /**
   * Deploy and fund the test tokens, deploy the Farcaster IdRegistry and the AMM (Uniswap V2 with
   * seeded pools), fund the on-ramp treasury, and place the ERC-4337 stack
   * (`deployAccountAbstraction`); default true.
   */
  deploy?: boolean
  /**
   * Seed NFT collections and months of history (`seedDevnet`) after the tokens: the chain then
   * starts with a genesis 430 days old. `apiUrl` is the API serving the collections' metadata.
   */
  seed?: { apiUrl: string } | undefined
}

/** A running devnet. */
export type StartDevnetReturnType = {
  rpcUrl: string
  chainId: number
  /** The deployed test tokens (empty when `deploy: false`). */
  tokens: TestToken[]
  /** What the seed did, when asked for. */
  seeded: SeedDevnetReturnType | undefined
  /** The Farcaster IdRegistry (`FARCASTER_ID_REGISTRY`), or null when nothing was deployed. */
  idRegistry: Address | null
  /** The AMM (`DEVNET_AMM` and its pools), or null when nothing was deployed. */
  amm: DeployAmmReturnType | null
  /**
   * The ERC-4337 v0.7 contracts (EntryPoint, SenderCreator, `DEVNET_AA`'s account factory and
   * paymaster), or null when nothing was deployed.
   */
  aa: DeployAccountAbstractionReturnType | null
  /** Stops anvil; resolves once it has exited. */
  stop(): Promise<void>
}

/**
 * Starts anvil (default port 8545, chain 31337) and deploys the test tokens, the Farcaster
 * IdRegistry (`FARCASTER_ID_REGISTRY`) and the AMM (`DEVNET_AMM`, pools ETH/pUSD, ETH/PRT and
 * pUSD/PRT), funds the on-ramp treasury (`ONRAMP_TREASURY`), places the ERC-4337 v0.7 stack
 * (EntryPoint, `DEVNET_AA`'s account factory and funded paymaster, funded bundler keys), and
 * with `seed` the NFT collections and history of `seedDevnet` (before the registry and the AMM).
 * The local stack runs two, seeded: chain 31337 on 8545 and chain 31338 on 8546.
 *
 * @example
 * const devnet = await startDevnet({ port: 8546, chainId: 31338 })
 * devnet.tokens.map((t) => t.symbol) // ['pUSD', 'PRT']
 * await devnet.stop()
 */
export async function startDevnet(
  parameters: StartDevnetParameters = {},
): Promise<StartDevnetReturnType> {
  const { deploy = true, seed, port = 8545, chainId = DEVNET_CHAIN_ID, ...rest } = parameters
  const now = Math.floor(Date.now() / 1000)
  const anvil = await startAnvil({
    ...rest,
    port,
    chainId,
    args: [
      ...(rest.args ?? []),
      ...(seed ? ['--timestamp', String(seedGenesisTimestamp(now))] : []),
    ],
  })
  try {
    const tokens = deploy || seed ? await deployTestTokens({ rpcUrl: anvil.rpcUrl }) : []
    const seeded = seed
      ? await seedDevnet({ rpcUrl: anvil.rpcUrl, apiUrl: seed.apiUrl })
      : undefined
    // After the seed (its blocks carry past times); the registry's deployer is its own account.
    const idRegistry = deploy || seed ? await deployIdRegistry({ rpcUrl: anvil.rpcUrl }) : null
    // Dev account 0 mints the pools' and the treasury's tokens: after the seed, whose
    // collections sit at its nonces 22 and 23 (SEED_FIRST_NONCE).
    const amm = deploy || seed ? await deployAmm({ rpcUrl: anvil.rpcUrl }) : null
    if (deploy || seed) await fundOnrampTreasury({ rpcUrl: anvil.rpcUrl })
    const aa = deploy || seed ? await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl }) : null
    return { rpcUrl: anvil.rpcUrl, chainId, tokens, seeded, idRegistry, amm, aa, stop: anvil.stop }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}
