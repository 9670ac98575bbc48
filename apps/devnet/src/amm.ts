/**
 * The devnet's AMM: Uniswap V2 (WETH9, factory, Router02) from the `@uniswap/v2-core` and
 * `@uniswap/v2-periphery` npm artifacts, deployed by a key of its own (`AMM_DEPLOYER`) at its
 * nonces 0, 1 and 2, so it sits at `DEVNET_AMM` on both devnets, with three pools seeded at the
 * API's fixed prices (ETH 3000 USD, pUSD 1, PRT 0.25).
 */
import { createRequire } from 'node:module'
import { AMM_DEPLOYER, DEVNET_AMM } from '@porthole/shared/devnet'
import {
  type Address,
  createPublicClient,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  getCreate2Address,
  type Hex,
  http,
  isAddressEqual,
  keccak256,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { testErc20Abi } from './abi/erc20.ts'
import { DEPLOYER } from './accounts.ts'
import { DeployError, TEST_TOKENS } from './deploy.ts'

/**
 * keccak256 of the Uniswap V2 pair's creation code: the router computes pair addresses with it
 * (CREATE2 from the factory). The artifacts of `@uniswap/v2-core@1.0.1` and
 * `@uniswap/v2-periphery@1.1.0-beta.0` agree on it (a unit test checks).
 *
 * @example
 * getCreate2Address({ from: DEVNET_AMM.factory, salt, bytecodeHash: AMM_PAIR_INIT_CODE_HASH })
 */
export const AMM_PAIR_INIT_CODE_HASH =
  '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f' as const

/** A token of the devnet's pools: the chain's native ETH (through WETH) or a test token. */
export type AmmAsset = 'ETH' | 'pUSD' | 'PRT'

/** One seeded pool: its two assets and the whole units of each put in. */
export type AmmPool = { a: AmmAsset; b: AmmAsset; amountA: string; amountB: string }

/**
 * The seeded pools, at the API's fixed prices (ETH 3000 USD, pUSD 1, PRT 0.25). 1000 ETH a side
 * is deep enough that a 1 ETH trade gets a price 0.1 % off the spot price (fee aside) and shallow
 * enough that a 50 ETH trade gets one about 5 % off (and moves the spot price 10 %).
 *
 * @example
 * AMM_POOLS[0] // { a: 'ETH', b: 'pUSD', amountA: '1000', amountB: '3000000' }
 */
export const AMM_POOLS = [
  { a: 'ETH', b: 'pUSD', amountA: '1000', amountB: '3000000' },
  { a: 'ETH', b: 'PRT', amountA: '1000', amountB: '12000000' },
  { a: 'pUSD', b: 'PRT', amountA: '3000000', amountB: '12000000' },
] as const satisfies readonly AmmPool[]

/** A seeded pool's pair contract. */
export type AmmPair = { a: AmmAsset; b: AmmAsset; address: Address }

/** What {@link deployAmm} answers: `DEVNET_AMM` and the pools' pair contracts. */
export type DeployAmmReturnType = {
  weth: Address
  factory: Address
  router: Address
  /** The pools of {@link AMM_POOLS}, in that order. */
  pairs: AmmPair[]
}

/** Options of {@link deployAmm}. */
export type DeployAmmParameters = {
  rpcUrl: string
  /** Receipt polling interval; default 50 ms. */
  pollingIntervalMs?: number
}

const liquidityAbi = parseAbi([
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)',
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256, uint256, uint256)',
])

const GAS = {
  weth: 1_000_000n,
  factory: 4_000_000n,
  router: 5_500_000n,
  approve: 100_000n,
  mint: 120_000n,
  // Creates the pair (CREATE2 of ~10 KB) and mints the first liquidity.
  addLiquidity: 3_500_000n,
}
/** ETH the deployer gets besides the pools' ETH, for gas. */
const GAS_ETH = parseEther('100')

const tokenOf = (asset: Exclude<AmmAsset, 'ETH'>) => {
  const token = TEST_TOKENS.find((t) => t.symbol === asset)
  if (!token) throw new DeployError(`No test token ${asset}`)
  return token
}
const addressOf = (asset: AmmAsset): Address =>
  asset === 'ETH' ? DEVNET_AMM.weth : tokenOf(asset).address
const unitsOf = (asset: AmmAsset, amount: string): bigint =>
  asset === 'ETH' ? parseEther(amount) : parseUnits(amount, tokenOf(asset).decimals)

/** How much of `asset` the pools hold in all, in base units. */
const poolTotal = (asset: AmmAsset): bigint =>
  AMM_POOLS.reduce(
    (sum, pool: AmmPool) =>
      sum +
      (pool.a === asset ? unitsOf(asset, pool.amountA) : 0n) +
      (pool.b === asset ? unitsOf(asset, pool.amountB) : 0n),
    0n,
  )

/**
 * The pair contract of two assets on the devnets' factory (`ETH` means WETH), computed the way
 * the router does (CREATE2, token0 the lower address).
 *
 * @example
 * ammPairAddress('ETH', 'pUSD') // the ETH/pUSD pool
 */
export function ammPairAddress(a: AmmAsset | Address, b: AmmAsset | Address): Address {
  const [x, y] = [a, b].map((asset) =>
    asset.startsWith('0x') ? asset : addressOf(asset as AmmAsset),
  )
  const [token0, token1] = BigInt(x as Address) < BigInt(y as Address) ? [x, y] : [y, x]
  return getCreate2Address({
    from: DEVNET_AMM.factory,
    salt: keccak256(encodePacked(['address', 'address'], [token0 as Address, token1 as Address])),
    bytecodeHash: AMM_PAIR_INIT_CODE_HASH,
  })
}

/** Deployable code of an npm artifact (`bytecode`, with or without 0x). */
function artifactCode(path: string): Hex {
  const { bytecode } = createRequire(import.meta.url)(path) as { bytecode: string }
  return (bytecode.startsWith('0x') ? bytecode : `0x${bytecode}`) as Hex
}

/**
 * Deploys the AMM at `DEVNET_AMM` and seeds {@link AMM_POOLS} (once: a chain whose router
 * exists is left as it is). Needs the test tokens (`deployTestTokens`) on the chain: dev
 * account 0, their owner, mints the pools' pUSD and PRT to `AMM_DEPLOYER`, which gets its ETH
 * with `anvil_setBalance` and provides the liquidity through the router. Transactions with
 * consecutive nonces are sent at once; the pools are added once the contracts and mints landed.
 *
 * @example
 * const amm = await deployAmm({ rpcUrl: 'http://127.0.0.1:8545' })
 * amm.router // '0x9C2E0D25F519D2645f780FA62820f821ff79a52D'
 */
export async function deployAmm(parameters: DeployAmmParameters): Promise<DeployAmmReturnType> {
  const { rpcUrl, pollingIntervalMs = 50 } = parameters
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: pollingIntervalMs })
  const result: DeployAmmReturnType = {
    ...DEVNET_AMM,
    pairs: AMM_POOLS.map(({ a, b }) => ({ a, b, address: ammPairAddress(a, b) })),
  }
  const existing = await client.getCode({ address: DEVNET_AMM.router })
  if (existing && existing !== '0x') return result

  const deployer = privateKeyToAccount(AMM_DEPLOYER.privateKey)
  const owner = privateKeyToAccount(DEPLOYER.privateKey)
  const [chainId, nonce, ownerNonce, fees, tokenCode] = await Promise.all([
    client.getChainId(),
    client.getTransactionCount({ address: deployer.address, blockTag: 'pending' }),
    client.getTransactionCount({ address: owner.address, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
    Promise.all(TEST_TOKENS.map((token) => client.getCode({ address: token.address }))),
  ])
  if (nonce !== 0)
    throw new DeployError(
      `The AMM deployer has nonce ${nonce}: the AMM would not land at ${DEVNET_AMM.router}`,
    )
  if (tokenCode.some((code) => !code || code === '0x'))
    throw new DeployError('The AMM needs the test tokens: run deployTestTokens first')
  await client.request({
    method: 'anvil_setBalance' as never,
    params: [deployer.address, toHex(poolTotal('ETH') + GAS_ETH)] as never,
  })

  const nonces = new Map([
    [deployer.address, nonce],
    [owner.address, ownerNonce],
  ])
  const send = async (
    account: typeof deployer,
    tx: { to?: Address; data: Hex; gas: bigint; value?: bigint },
  ) => {
    const next = nonces.get(account.address) ?? 0
    nonces.set(account.address, next + 1)
    const serialized = await account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce: next,
      ...(tx.to ? { to: tx.to } : {}),
      data: tx.data,
      gas: tx.gas,
      ...(tx.value ? { value: tx.value } : {}),
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    })
    return client.sendRawTransaction({ serializedTransaction: serialized })
  }
  const settle = async (hashes: Hex[]) => {
    const receipts = await Promise.all(
      hashes.map((hash) =>
        client.waitForTransactionReceipt({ hash, pollingInterval: pollingIntervalMs }),
      ),
    )
    const failed = receipts.find((receipt) => receipt.status !== 'success')
    if (failed) throw new DeployError(`AMM transaction ${failed.transactionHash} reverted`)
    return receipts
  }

  // Phase 1: the contracts, the approvals and the mints (independent of each other).
  const deployments = [
    { data: artifactCode('@uniswap/v2-periphery/build/WETH9.json'), gas: GAS.weth },
    {
      data: `${artifactCode('@uniswap/v2-core/build/UniswapV2Factory.json')}${encodeAbiParameters(
        [{ type: 'address' }],
        [deployer.address],
      ).slice(2)}` as Hex,
      gas: GAS.factory,
    },
    {
      data: `${artifactCode('@uniswap/v2-periphery/build/UniswapV2Router02.json')}${encodeAbiParameters(
        [{ type: 'address' }, { type: 'address' }],
        [DEVNET_AMM.factory, DEVNET_AMM.weth],
      ).slice(2)}` as Hex,
      gas: GAS.router,
    },
  ]
  const expected = [DEVNET_AMM.weth, DEVNET_AMM.factory, DEVNET_AMM.router]
  deployments.forEach((_, i) => {
    const address = getContractAddress({ from: deployer.address, nonce: BigInt(i) })
    if (!isAddressEqual(address, expected[i]!))
      throw new DeployError(`AMM contract ${i} would deploy at ${address}, expected ${expected[i]}`)
  })
  const first: Hex[] = []
  for (const deployment of deployments) first.push(await send(deployer, deployment))
  for (const token of TEST_TOKENS) {
    first.push(
      await send(deployer, {
        to: token.address,
        data: encodeFunctionData({
          abi: testErc20Abi,
          functionName: 'approve',
          args: [DEVNET_AMM.router, maxUint256],
        }),
        gas: GAS.approve,
      }),
    )
    first.push(
      await send(owner, {
        to: token.address,
        data: encodeFunctionData({
          abi: testErc20Abi,
          functionName: 'mint',
          args: [deployer.address, poolTotal(token.symbol)],
        }),
        gas: GAS.mint,
      }),
    )
  }
  const receipts = await settle(first)
  receipts.slice(0, 3).forEach((receipt, i) => {
    if (!receipt.contractAddress || !isAddressEqual(receipt.contractAddress, expected[i]!))
      throw new DeployError(
        `AMM contract ${i} deployed at ${receipt.contractAddress ?? 'nowhere'}, expected ${expected[i]}`,
      )
  })

  // Phase 2: the pools, through the router.
  const second: Hex[] = []
  for (const pool of AMM_POOLS) {
    const [a, b] = [unitsOf(pool.a, pool.amountA), unitsOf(pool.b, pool.amountB)]
    second.push(
      await send(deployer, {
        to: DEVNET_AMM.router,
        gas: GAS.addLiquidity,
        ...(pool.a === 'ETH'
          ? {
              value: a,
              data: encodeFunctionData({
                abi: liquidityAbi,
                functionName: 'addLiquidityETH',
                args: [addressOf(pool.b), b, b, a, deployer.address, maxUint256],
              }),
            }
          : {
              data: encodeFunctionData({
                abi: liquidityAbi,
                functionName: 'addLiquidity',
                args: [
                  addressOf(pool.a),
                  addressOf(pool.b),
                  a,
                  b,
                  a,
                  b,
                  deployer.address,
                  maxUint256,
                ],
              }),
            }),
      }),
    )
  }
  await settle(second)
  return result
}
