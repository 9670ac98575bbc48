import { createPublicClient, getContractAddress, http, parseUnits } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { testErc20Abi } from './abi/erc20.ts'
import { DEPLOYER, DEV_ACCOUNTS } from './accounts.ts'
import { type StartAnvilReturnType, startAnvil } from './anvil.ts'
import { deployTestTokens, TEST_TOKEN_GRANT, TEST_TOKENS, type TestToken } from './deploy.ts'

let anvil: StartAnvilReturnType
let tokens: TestToken[]
beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
  const started = performance.now()
  tokens = await deployTestTokens({ rpcUrl: anvil.rpcUrl })
  console.info(`tokens deployed and funded in ${Math.round(performance.now() - started)} ms`)
})
afterAll(() => anvil?.stop())

test('the expected addresses are dev account 0 nonces 0 and 1', () => {
  TEST_TOKENS.forEach((token, nonce) => {
    expect(getContractAddress({ from: DEPLOYER.address, nonce: BigInt(nonce) })).toBe(token.address)
  })
})

test('deploys pUSD and PRT at the expected addresses', () => {
  expect(tokens).toEqual([
    { address: TEST_TOKENS[0].address, name: 'Porthole USD', symbol: 'pUSD', decimals: 6 },
    { address: TEST_TOKENS[1].address, name: 'Porthole Token', symbol: 'PRT', decimals: 18 },
  ])
})

test('each token reports its metadata and dev account 1 holds the grant', async () => {
  const client = createPublicClient({ transport: http(anvil.rpcUrl) })
  for (const token of tokens) {
    const read = <const name extends 'decimals' | 'symbol' | 'name'>(functionName: name) =>
      client.readContract({ address: token.address, abi: testErc20Abi, functionName })
    expect(await read('decimals')).toBe(token.decimals)
    expect(await read('symbol')).toBe(token.symbol)
    expect(await read('name')).toBe(token.name)
    const balance = await client.readContract({
      address: token.address,
      abi: testErc20Abi,
      functionName: 'balanceOf',
      args: [DEV_ACCOUNTS[1].address],
    })
    expect(balance).toBe(parseUnits(TEST_TOKEN_GRANT, token.decimals))
    const supply = await client.readContract({
      address: token.address,
      abi: testErc20Abi,
      functionName: 'totalSupply',
    })
    expect(supply).toBe(parseUnits(TEST_TOKEN_GRANT, token.decimals) * 10n)
  }
})

test('deploys the same addresses on a second chain with interval mining', async () => {
  const second = await startAnvil({ port: 0, chainId: 31338, blockTime: 1, silent: true })
  try {
    const deployed = await deployTestTokens({ rpcUrl: second.rpcUrl })
    expect(deployed.map((t) => t.address)).toEqual(TEST_TOKENS.map((t) => t.address))
  } finally {
    await second.stop()
  }
})

test('a second deployment on a used chain lands at new addresses', async () => {
  const again = await deployTestTokens({ rpcUrl: anvil.rpcUrl, recipients: [] })
  expect(again.map((t) => t.symbol)).toEqual(['pUSD', 'PRT'])
  expect(again[0]!.address).not.toBe(TEST_TOKENS[0].address)
})
