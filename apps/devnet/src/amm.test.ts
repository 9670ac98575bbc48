import { createRequire } from 'node:module'
import {
  AMM_DEPLOYER,
  DEVNET_AMM,
  ONRAMP_TREASURY,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV2RouterAbi,
} from '@porthole/shared/devnet'
import {
  type Abi,
  type Address,
  createPublicClient,
  getContractAddress,
  http,
  keccak256,
  parseEther,
  parseUnits,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { testErc20Abi } from './abi/erc20.ts'
import { AMM_PAIR_INIT_CODE_HASH, AMM_POOLS, ammPairAddress, deployAmm } from './amm.ts'
import { type StartAnvilReturnType, startAnvil } from './anvil.ts'
import { DeployError, deployTestTokens, TEST_TOKENS } from './deploy.ts'
import { fundOnrampTreasury, ONRAMP_TREASURY_FUNDS } from './onrampTreasury.ts'

const require = createRequire(import.meta.url)
const artifact = (path: string) => require(path) as { abi: Abi; bytecode: string }
const [PUSD, PRT] = TEST_TOKENS

let anvil: StartAnvilReturnType
const client = () => createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 50 })

describe('on a devnet with the test tokens', () => {
  beforeAll(async () => {
    anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
    await deployTestTokens({ rpcUrl: anvil.rpcUrl })
  })
  afterAll(() => anvil?.stop())

  const reserves = async (a: Address, b: Address) => {
    const pair = await client().readContract({
      address: DEVNET_AMM.factory,
      abi: uniswapV2FactoryAbi,
      functionName: 'getPair',
      args: [a, b],
    })
    const [[r0, r1], token0] = await Promise.all([
      client().readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'getReserves' }),
      client().readContract({ address: pair, abi: uniswapV2PairAbi, functionName: 'token0' }),
    ])
    return { pair, reserves: token0.toLowerCase() === a.toLowerCase() ? [r0, r1] : [r1, r0] }
  }
  const quote = (amount: bigint, path: Address[]) =>
    client().readContract({
      address: DEVNET_AMM.router,
      abi: uniswapV2RouterAbi,
      functionName: 'getAmountsOut',
      args: [amount, path],
    })

  test('deploys WETH, the factory and the router at DEVNET_AMM with the three pools seeded', async () => {
    const started = performance.now()
    const amm = await deployAmm({ rpcUrl: anvil.rpcUrl })
    console.info(`AMM deployed and seeded in ${Math.round(performance.now() - started)} ms`)
    expect(amm).toMatchObject(DEVNET_AMM)
    expect(
      await client().readContract({
        address: DEVNET_AMM.router,
        abi: uniswapV2RouterAbi,
        functionName: 'WETH',
      }),
    ).toBe(DEVNET_AMM.weth)
    expect(
      await client().readContract({
        address: DEVNET_AMM.router,
        abi: uniswapV2RouterAbi,
        functionName: 'factory',
      }),
    ).toBe(DEVNET_AMM.factory)
    const units = { ETH: 18, pUSD: PUSD.decimals, PRT: PRT.decimals }
    const address = { ETH: DEVNET_AMM.weth, pUSD: PUSD.address, PRT: PRT.address }
    for (const [i, pool] of AMM_POOLS.entries()) {
      const { pair, reserves: r } = await reserves(address[pool.a], address[pool.b])
      expect(pair).toBe(amm.pairs[i]!.address)
      expect(pair).toBe(ammPairAddress(pool.a, pool.b))
      expect(r).toEqual([
        parseUnits(pool.amountA, units[pool.a]),
        parseUnits(pool.amountB, units[pool.b]),
      ])
    }
  })

  test('prices match the fixed table; 1 ETH moves them < 1 %, 50 ETH several %', async () => {
    await deployAmm({ rpcUrl: anvil.rpcUrl })
    const [, pusdOut] = await quote(parseEther('1'), [DEVNET_AMM.weth, PUSD.address])
    // 3000 pUSD less the 0.3 % fee and the price moving 0.1 %.
    expect(Number(pusdOut) / 1e6).toBeGreaterThan(3000 * 0.99)
    expect(Number(pusdOut) / 1e6).toBeLessThan(3000 * 0.997)
    const [, prtOut] = await quote(parseUnits('100', 6), [PUSD.address, PRT.address])
    expect(Number(prtOut) / 1e18).toBeCloseTo(400 * 0.997, 0)
    const [, , viaEth] = await quote(parseEther('1'), [PRT.address, DEVNET_AMM.weth, PUSD.address])
    expect(Number(viaEth) / 1e6).toBeCloseTo(0.25 * 0.997 ** 2, 3)
    const [, big] = await quote(parseEther('50'), [DEVNET_AMM.weth, PUSD.address])
    const impact = 1 - Number(big) / 1e6 / (50 * 3000 * 0.997)
    expect(impact).toBeGreaterThan(0.03)
    expect(impact).toBeLessThan(0.1)
  })

  test('a chain that has the AMM is left alone', async () => {
    await deployAmm({ rpcUrl: anvil.rpcUrl })
    const block = await client().getBlockNumber()
    const amm = await deployAmm({ rpcUrl: anvil.rpcUrl })
    expect(amm.router).toBe(DEVNET_AMM.router)
    expect(await client().getBlockNumber()).toBe(block)
  })

  test('the on-ramp treasury is funded once: ETH and 10,000,000 pUSD and PRT', async () => {
    expect(await fundOnrampTreasury({ rpcUrl: anvil.rpcUrl })).toBe(ONRAMP_TREASURY.address)
    const balances = async () =>
      Promise.all([
        client().getBalance({ address: ONRAMP_TREASURY.address }),
        ...TEST_TOKENS.map((token) =>
          client().readContract({
            address: token.address,
            abi: testErc20Abi,
            functionName: 'balanceOf',
            args: [ONRAMP_TREASURY.address],
          }),
        ),
      ])
    const expected = [
      parseEther(ONRAMP_TREASURY_FUNDS.eth),
      parseUnits(ONRAMP_TREASURY_FUNDS.tokens, PUSD.decimals),
      parseUnits(ONRAMP_TREASURY_FUNDS.tokens, PRT.decimals),
    ]
    expect(await balances()).toEqual(expected)
    const block = await client().getBlockNumber()
    await fundOnrampTreasury({ rpcUrl: anvil.rpcUrl })
    expect(await client().getBlockNumber()).toBe(block)
    expect(await balances()).toEqual(expected)
  })
})

describe('on a bare chain', () => {
  let bare: StartAnvilReturnType
  beforeAll(async () => {
    bare = await startAnvil({ port: 0, chainId: 31338, silent: true })
  })
  afterAll(() => bare?.stop())

  test('refuses to deploy without the test tokens', async () => {
    await expect(deployAmm({ rpcUrl: bare.rpcUrl })).rejects.toThrow(DeployError)
    await expect(deployAmm({ rpcUrl: bare.rpcUrl })).rejects.toThrow(/test tokens/)
  })
})

test('DEVNET_AMM are the deployer’s nonces 0, 1 and 2', () => {
  expect(
    [0n, 1n, 2n].map((nonce) => getContractAddress({ from: AMM_DEPLOYER.address, nonce })),
  ).toEqual([DEVNET_AMM.weth, DEVNET_AMM.factory, DEVNET_AMM.router])
})

test('the router was built for the factory’s pair code (init-code hash)', () => {
  const pair = artifact('@uniswap/v2-core/build/UniswapV2Pair.json')
  const router = artifact('@uniswap/v2-periphery/build/UniswapV2Router02.json')
  expect(keccak256(`0x${pair.bytecode.replace(/^0x/, '')}`)).toBe(AMM_PAIR_INIT_CODE_HASH)
  expect(router.bytecode).toContain(AMM_PAIR_INIT_CODE_HASH.slice(2))
  // The factory deploys that very code.
  const factory = artifact('@uniswap/v2-core/build/UniswapV2Factory.json')
  expect(factory.bytecode).toContain(pair.bytecode.replace(/^0x/, '').slice(0, 2000))
})

test('the shared ABIs match the artifacts', () => {
  const check = (shared: Abi, path: string) => {
    const { abi } = artifact(path)
    for (const entry of shared) {
      if (entry.type !== 'function') continue
      const compiled = abi.find((e) => e.type === 'function' && e.name === entry.name)
      expect(
        compiled && 'inputs' in compiled ? compiled.inputs.map((i) => i.type) : null,
        entry.name,
      ).toEqual(entry.inputs.map((i) => i.type))
      expect(
        compiled && 'outputs' in compiled ? compiled.outputs.map((o) => o.type) : null,
        entry.name,
      ).toEqual(entry.outputs.map((o) => o.type))
    }
  }
  check(uniswapV2RouterAbi, '@uniswap/v2-periphery/build/UniswapV2Router02.json')
  check(uniswapV2FactoryAbi, '@uniswap/v2-core/build/UniswapV2Factory.json')
  check(uniswapV2PairAbi, '@uniswap/v2-core/build/UniswapV2Pair.json')
})
