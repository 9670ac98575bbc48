/**
 * The gas a built swap carries covers what the swap costs when it lands, not only what the
 * estimate saw: a Uniswap V2 pair writes its price accumulators only in a later second than
 * its last update, so an estimate run in that same second is short by two storage writes.
 * A real anvil with fresh pools (their accumulators still zero) and the API in process.
 */
import { devnetChain, type StartDevnetReturnType, startDevnet, TEST_TOKENS } from '@porthole/devnet'
import { DEVNET_AMM, uniswapV2FactoryAbi, uniswapV2PairAbi } from '@porthole/shared/devnet'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  parseAbi,
  parseEther,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '../../test/testApp.js'
import { BuildTransactionResponse } from './SwapProvider.js'

const CHAIN = 'eip155:31337'
const ETH = `${CHAIN}:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee`
const PRT_TOKEN = TEST_TOKENS[1]

let devnet: StartDevnetReturnType
let t: TestApp
beforeAll(async () => {
  devnet = await startDevnet({ port: 0, silent: true })
  t = await createTestApp({ upstreams: { [CHAIN]: devnet.rpcUrl } })
})
afterAll(async () => {
  await t?.close()
  await devnet?.stop()
})

const accumulatorsAbi = parseAbi(['function price0CumulativeLast() view returns (uint256)'])

test('a swap built in the same second as its pool’s last update still lands when a later block carries it', async () => {
  const client = createPublicClient({ transport: http(devnet.rpcUrl), pollingInterval: 50 })
  const rpc = (method: string, params: unknown[]) =>
    client.request({ method: method as never, params: params as never })
  const pair = await client.readContract({
    address: DEVNET_AMM.factory,
    abi: uniswapV2FactoryAbi,
    functionName: 'getPair',
    args: [DEVNET_AMM.weth, PRT_TOKEN.address],
  })
  const [, , lastUpdate] = await client.readContract({
    address: pair,
    abi: uniswapV2PairAbi,
    functionName: 'getReserves',
  })
  // The pool is as the devnet made it: its accumulators have never been written.
  expect(
    await client.readContract({
      address: pair,
      abi: accumulatorsAbi,
      functionName: 'price0CumulativeLast',
    }),
  ).toBe(0n)

  const account = privateKeyToAccount(generatePrivateKey())
  await rpc('anvil_setBalance', [account.address, toHex(parseEther('10'))])
  // The chain's clock at the pool's last update: the estimate behind the build runs then.
  await rpc('anvil_setTime', [lastUpdate])
  const response = await t.post('/v1/convert/build-transaction', {
    projectId: 'test-project',
    amount: parseEther('1').toString(),
    eip155: { slippage: 1 },
    from: ETH,
    to: `${CHAIN}:${PRT_TOKEN.address}`,
    userAddress: `${CHAIN}:${account.address}`,
  })
  expect(response.status, await response.clone().text()).toBe(200)
  const { tx } = BuildTransactionResponse.parse(await response.json())

  // The wallet signs a few seconds later: the swap's block is in a later second.
  await rpc('evm_setNextBlockTimestamp', [lastUpdate + 5])
  const wallet = createWalletClient({
    account,
    transport: http(devnet.rpcUrl),
    chain: devnetChain({ chainId: 31337, rpcUrl: devnet.rpcUrl }),
  })
  const hash = await wallet.sendTransaction({
    to: tx.to.split(':')[2] as Address,
    data: tx.data as Hex,
    value: BigInt(tx.amount),
    gas: BigInt(tx.eip155.gas),
    gasPrice: BigInt(tx.eip155.gasPrice),
  })
  const receipt = await client.waitForTransactionReceipt({ hash })
  expect(receipt.status, `${receipt.gasUsed} of ${tx.eip155.gas} gas used`).toBe('success')
  expect(
    await client.readContract({
      address: pair,
      abi: accumulatorsAbi,
      functionName: 'price0CumulativeLast',
    }),
  ).toBeGreaterThan(0n)
})
