/**
 * `@porthole/devnet`: local EVM devnets (anvil) with Porthole's test tokens deployed.
 */
import { type StartAnvilParameters, startAnvil } from './anvil.ts'
import { DEVNET_CHAIN_ID } from './chain.ts'
import { deployTestTokens, type TestToken } from './deploy.ts'

export { testErc20Abi } from './abi/erc20.ts'
export { testErc721Abi } from './abi/erc721.ts'
export {
  DEPLOYER,
  DEV_ACCOUNT_BALANCE_ETH,
  DEV_ACCOUNTS,
  DEV_MNEMONIC,
  type DevAccount,
} from './accounts.ts'
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

/** Options of {@link startDevnet}. */
export type StartDevnetParameters = Partial<StartAnvilParameters> & {
  /** Deploy and fund the test tokens; default true. */
  deploy?: boolean
}

/** A running devnet. */
export type StartDevnetReturnType = {
  rpcUrl: string
  chainId: number
  /** The deployed test tokens (empty when `deploy: false`). */
  tokens: TestToken[]
  /** Stops anvil; resolves once it has exited. */
  stop(): Promise<void>
}

/**
 * Starts anvil (default port 8545, chain 31337) and deploys the test tokens. The local stack
 * runs two: chain 31337 on 8545 and chain 31338 on 8546.
 *
 * @example
 * const devnet = await startDevnet({ port: 8546, chainId: 31338 })
 * devnet.tokens.map((t) => t.symbol) // ['pUSD', 'PRT']
 * await devnet.stop()
 */
export async function startDevnet(
  parameters: StartDevnetParameters = {},
): Promise<StartDevnetReturnType> {
  const { deploy = true, port = 8545, chainId = DEVNET_CHAIN_ID, ...rest } = parameters
  const anvil = await startAnvil({ ...rest, port, chainId })
  try {
    const tokens = deploy ? await deployTestTokens({ rpcUrl: anvil.rpcUrl }) : []
    return { rpcUrl: anvil.rpcUrl, chainId, tokens, stop: anvil.stop }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}
