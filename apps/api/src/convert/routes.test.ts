/**
 * The swap endpoints end to end: a real anvil from `@porthole/devnet` with the Uniswap V2 AMM
 * and its seeded pools, the API in process, transactions signed and sent as a wallet would.
 */
import {
  DEV_ACCOUNTS,
  devnetChain,
  type StartDevnetReturnType,
  startDevnet,
  TEST_TOKENS,
  testErc20Abi,
} from '@porthole/devnet'
import { DEVNET_AMM, uniswapV2RouterAbi } from '@porthole/shared/devnet'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  maxUint256,
  parseEther,
  parseUnits,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { freePort } from '../../test/freePort.js'
import { createTestApp, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import { setProjectFeatures } from '../projects/setProjectFeatures.js'
import {
  AllowanceResponse,
  BuildApproveResponse,
  BuildTransactionResponse,
  ConvertQuotesResponse,
  ConvertTokensResponse,
  GasPriceResponse,
} from './SwapProvider.js'

const CHAIN = 'eip155:31337'
const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const [PUSD_TOKEN, PRT_TOKEN] = TEST_TOKENS
const ETH = `${CHAIN}:${NATIVE}`
const PUSD = `${CHAIN}:${PUSD_TOKEN.address}`
const PRT = `${CHAIN}:${PRT_TOKEN.address}`
const caip = (address: string, chain = CHAIN) => `${chain}:${address}`

let devnet: StartDevnetReturnType
let t: TestApp
const client = () => createPublicClient({ transport: http(devnet.rpcUrl), pollingInterval: 50 })
const chain = () => devnetChain({ chainId: 31337, rpcUrl: devnet.rpcUrl })

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, silent: true })
  // 31338's upstream: a closed port (never the default 8546, where a real stack may run).
  t = await createTestApp({
    upstreams: {
      [CHAIN]: devnet.rpcUrl,
      'eip155:31338': `http://127.0.0.1:${await freePort()}`,
    },
  })
})
afterAll(async () => {
  await t?.close()
  await devnet?.stop()
})

const query = (params: Record<string, string>) => new URLSearchParams(params).toString()
const ok = async (response: Response) => {
  expect(response.status, await response.clone().text()).toBe(200)
  return response.json()
}
const expectError = async (
  response: Response,
  status: number,
  body: { code: string; message?: string; details?: unknown },
) => {
  expect(response.status, await response.clone().text()).toBe(status)
  expect(await response.json()).toMatchObject(body)
}

/** A new account with `ether` ETH (and nothing else). */
async function newUser(ether = '100') {
  const account = privateKeyToAccount(generatePrivateKey())
  await client().request({
    method: 'anvil_setBalance' as never,
    params: [account.address, toHex(parseEther(ether))] as never,
  })
  return {
    account,
    id: caip(account.address),
    wallet: createWalletClient({ account, transport: http(devnet.rpcUrl), chain: chain() }),
  }
}
type User = Awaited<ReturnType<typeof newUser>>

/** Sends a built transaction (`{ to, data, amount | value, eip155 }`) as `user` and waits. */
async function send(
  user: User,
  tx: {
    to: string
    data: string
    amount?: string
    value?: string
    eip155: { gas: string; gasPrice: string }
  },
) {
  const hash = await user.wallet.sendTransaction({
    to: tx.to.split(':')[2] as Address,
    data: tx.data as Hex,
    value: BigInt(tx.amount ?? tx.value ?? '0'),
    gas: BigInt(tx.eip155.gas),
    gasPrice: BigInt(tx.eip155.gasPrice),
  })
  return client().waitForTransactionReceipt({ hash })
}

const balanceOf = (token: Address, owner: Address) =>
  client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

/** Router's own quote for `amount` along `path`. */
const routerQuote = async (amount: bigint, path: Address[]) =>
  (
    await client().readContract({
      address: DEVNET_AMM.router,
      abi: uniswapV2RouterAbi,
      functionName: 'getAmountsOut',
      args: [amount, path],
    })
  ).at(-1)!

async function quote(from: string, to: string, amount: bigint, user: string) {
  const body = ConvertQuotesResponse.parse(
    await ok(
      await t.get(
        `/v1/convert/quotes?${query({ amount: amount.toString(), from, to, userAddress: user })}`,
      ),
    ),
  )
  expect(body.quotes).toHaveLength(1)
  return body.quotes[0]!
}

async function build(
  from: string,
  to: string,
  amount: bigint,
  user: string,
  extra: Record<string, unknown> = {},
) {
  return BuildTransactionResponse.parse(
    await ok(
      await t.post('/v1/convert/build-transaction', {
        projectId: 'test-project',
        amount: amount.toString(),
        eip155: { slippage: 1 },
        from,
        to,
        userAddress: user,
        ...extra,
      }),
    ),
  ).tx
}

describe('GET /v1/convert/tokens', () => {
  test('lists ETH, pUSD and PRT on a devnet with CAIP-10 ids and the API’s token images', async () => {
    const { tokens } = ConvertTokensResponse.parse(
      await ok(await t.get(`/v1/convert/tokens?chainId=${CHAIN}`)),
    )
    expect(tokens.map(({ logoUri: _, ...token }) => token)).toEqual([
      { name: 'Ether', symbol: 'ETH', address: ETH, decimals: 18 },
      { name: 'Porthole USD', symbol: 'pUSD', address: PUSD, decimals: 6 },
      { name: 'Porthole Token', symbol: 'PRT', address: PRT, decimals: 18 },
    ])
    expect(tokens[1]!.logoUri).toBe(
      'http://api.test/public/getTokenImage/pusd?projectId=test-project&st=appkit&sv=html-test-1',
    )
    for (const token of tokens) {
      const image = await t.get(new URL(token.logoUri).pathname + new URL(token.logoUri).search)
      expect(image.status, token.symbol).toBe(200)
      expect(image.headers.get('content-type')).toBe('image/svg+xml')
    }
  })

  test('a network off the swap list, a malformed id, or one without a router is refused', async () => {
    for (const chainId of ['eip155:5', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'])
      await expectError(await t.get(`/v1/convert/tokens?chainId=${chainId}`), 400, {
        code: 'SWAP_NETWORK_NOT_SUPPORTED',
        message: 'Network not supported for Swaps',
      })
    await expectError(await t.get('/v1/convert/tokens?chainId=31337'), 400, {
      code: 'INVALID_REQUEST',
      details: expect.stringContaining('not a CAIP-2 id'),
    })
    await expectError(await t.get('/v1/convert/tokens'), 400, { code: 'INVALID_REQUEST' })
    // Base is a swap network of the spec; this API has no router for it.
    await expectError(await t.get('/v1/convert/tokens?chainId=eip155:8453'), 503, {
      code: 'SWAP_NOT_CONFIGURED',
      message: 'Swaps are not configured for this network',
      details: expect.stringContaining('eip155:8453'),
    })
    // Without the project.
    const anonymous = await t.app.request(`/v1/convert/tokens?chainId=${CHAIN}`)
    expect(anonymous.status).toBe(400)
    expect(await anonymous.json()).toMatchObject({ code: 'PROJECT_ID_NOT_CONFIGURED' })
  })
})

describe('GET /v1/convert/quotes', () => {
  test('1 ETH → pUSD: the router’s amount, price impact, LP fee, gas and its USD cost', async () => {
    const user = caip(DEV_ACCOUNTS[1].address)
    const amount = parseEther('1')
    const [q, gasPrice, expected] = await Promise.all([
      quote(ETH, PUSD, amount, user),
      client().getGasPrice(),
      routerQuote(amount, [DEVNET_AMM.weth, PUSD_TOKEN.address]),
    ])
    expect(q).toMatchObject({
      fromAmount: amount.toString(),
      fromAccount: ETH,
      toAmount: expected.toString(),
      toAccount: PUSD,
      fee: { amount: parseEther('0.003').toString(), token: ETH },
      route: [ETH, PUSD],
    })
    // 1 ETH into a pool of 1000: the price moves ~0.1 % (the fee is counted apart).
    expect(q.priceImpact).toBeGreaterThan(0.05)
    expect(q.priceImpact).toBeLessThan(0.2)
    // ≈ 2988 pUSD: 3000 less the fee and the impact.
    expect(Number(q.toAmount) / 1e6).toBeCloseTo(3000 * 0.997 * (1 - q.priceImpact! / 100), 0)
    expect(q.gasPrice).toBe(gasPrice.toString())
    expect(Number(q.gas)).toBeGreaterThanOrEqual(90_000)
    expect(q.networkFeeUsd).toBeCloseTo((Number(q.gas) * Number(gasPrice) * 3000) / 1e18, 5)
  })

  test('pUSD → PRT trades through its own pool; a given gas price is used; 50 ETH moves the price several %', async () => {
    const user = caip(DEV_ACCOUNTS[1].address)
    const amount = parseUnits('1000', 6)
    const q = await quote(PUSD, PRT, amount, user)
    expect(q.route).toEqual([PUSD, PRT])
    expect(q.toAmount).toBe(
      (await routerQuote(amount, [PUSD_TOKEN.address, PRT_TOKEN.address])).toString(),
    )
    const priced = ConvertQuotesResponse.parse(
      await ok(
        await t.get(
          `/v1/convert/quotes?${query({ amount: '1000000', from: PRT, to: ETH, userAddress: user, gasPrice: '2000000000' })}`,
        ),
      ),
    ).quotes[0]!
    expect(priced.gasPrice).toBe('2000000000')
    expect(priced.networkFeeUsd).toBeCloseTo((Number(priced.gas) * 2e9 * 3000) / 1e18, 6)
    const big = await quote(ETH, PRT, parseEther('50'), user)
    expect(big.priceImpact).toBeGreaterThan(3)
    expect(big.priceImpact).toBeLessThan(10)
  })

  test('bad input gets a clear 400: unknown token, zero or malformed amount, too much, mixed networks', async () => {
    const user = caip(DEV_ACCOUNTS[1].address)
    const ask = (params: Record<string, string>) =>
      t.get(
        `/v1/convert/quotes?${query({ amount: '1000000', from: PUSD, to: PRT, userAddress: user, ...params })}`,
      )
    const stranger = caip('0x1111111111111111111111111111111111111111')
    await expectError(await ask({ to: stranger }), 400, {
      code: 'UNKNOWN_TOKEN',
      message: 'Unknown token',
      details: expect.stringContaining('not on the swap list'),
    })
    // WETH is the router's business, not a listed token.
    await expectError(await ask({ from: caip(DEVNET_AMM.weth) }), 400, { code: 'UNKNOWN_TOKEN' })
    for (const amount of ['0', '1.5', '-1', 'abc', '', `${maxUint256 + 1n}`])
      await expectError(await ask({ amount }), 400, {
        code: 'INVALID_AMOUNT',
        message: 'Invalid amount',
      })
    // Less than a pUSD base unit's worth.
    await expectError(await ask({ from: ETH, to: PUSD, amount: '1' }), 400, {
      code: 'INVALID_AMOUNT',
      details: expect.stringContaining('buy no pUSD'),
    })
    // More ETH than the pool holds.
    await expectError(await ask({ from: ETH, amount: parseEther('5000').toString() }), 400, {
      code: 'INSUFFICIENT_LIQUIDITY',
      message: 'Insufficient liquidity for this trade',
      details: expect.stringContaining('WETH/PRT pool'),
    })
    await expectError(await ask({ to: caip(PRT_TOKEN.address, 'eip155:31338') }), 400, {
      code: 'NETWORK_MISMATCH',
      message: 'The tokens and the account must be on one network',
    })
    await expectError(await ask({ userAddress: caip(DEV_ACCOUNTS[1].address, 'eip155:1') }), 400, {
      code: 'NETWORK_MISMATCH',
    })
    await expectError(await ask({ from: PUSD_TOKEN.address }), 400, {
      code: 'INVALID_REQUEST',
      details: expect.stringContaining('from: '),
    })
    await expectError(await ask({ userAddress: `${CHAIN}:0x1234` }), 400, {
      code: 'INVALID_REQUEST',
      details: expect.stringContaining('not an EVM address'),
    })
    await expectError(await ask({ to: PUSD }), 400, {
      code: 'INVALID_REQUEST',
      details: 'from and to are the same token',
    })
    await expectError(await t.get(`/v1/convert/quotes?from=${PUSD}`), 400, {
      code: 'INVALID_REQUEST',
    })
    // Off the list, and on the list without a router or a reachable RPC.
    const on = (chain: string) => ({
      from: caip(NATIVE, chain),
      to: caip(PUSD_TOKEN.address, chain),
      userAddress: caip(DEV_ACCOUNTS[1].address, chain),
    })
    await expectError(await ask(on('eip155:5')), 400, {
      code: 'SWAP_NETWORK_NOT_SUPPORTED',
      message: 'Network not supported for Swaps',
    })
    await expectError(await ask(on('eip155:1')), 503, { code: 'SWAP_NOT_CONFIGURED' })
    await expectError(await ask(on('eip155:31338')), 503, {
      code: 'SWAP_UNAVAILABLE',
      message: 'Swap provider unavailable',
    })
  })
})

describe('swapping with the built transactions', () => {
  test('ETH → pUSD: the signed transaction swaps, balances move by the quote', async () => {
    const user = await newUser()
    const amount = parseEther('1')
    const q = await quote(ETH, PUSD, amount, user.id)
    const tx = await build(ETH, PUSD, amount, user.id)
    expect(tx).toMatchObject({
      from: user.id,
      to: caip(DEVNET_AMM.router),
      amount: amount.toString(),
    })
    const call = decodeFunctionData({ abi: uniswapV2RouterAbi, data: tx.data as Hex })
    expect(call.functionName).toBe('swapExactETHForTokens')
    const [amountOutMin, path, recipient, deadline] = call.args as [
      bigint,
      Address[],
      Address,
      bigint,
    ]
    expect(amountOutMin).toBe((BigInt(q.toAmount) * 99n) / 100n)
    expect(path).toEqual([DEVNET_AMM.weth, PUSD_TOKEN.address])
    expect(recipient).toBe(user.account.address)
    const now = Math.floor(Date.now() / 1000)
    expect(Number(deadline)).toBeGreaterThanOrEqual(now + 1190)
    expect(Number(deadline)).toBeLessThanOrEqual(now + 1260)
    // Estimated (×1.2), not the fixed figure.
    expect(Number(tx.eip155.gas)).toBeGreaterThan(90_000)
    expect(tx.eip155.gas).not.toBe('180000')

    const ethBefore = await client().getBalance({ address: user.account.address })
    const receipt = await send(user, tx)
    expect(receipt.status).toBe('success')
    const received = await balanceOf(PUSD_TOKEN.address, user.account.address)
    expect(received).toBe(BigInt(q.toAmount))
    expect(received).toBeGreaterThanOrEqual(amountOutMin)
    expect(await client().getBalance({ address: user.account.address })).toBe(
      ethBefore - amount - receipt.gasUsed * receipt.effectiveGasPrice,
    )
  })

  test('pUSD → PRT: allowance 0, approve through build-approve, then the swap', async () => {
    const user = await newUser()
    const amount = parseUnits('500', 6)
    // Dev account 0 gives the user 500 pUSD.
    const funder = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS[0].privateKey),
      transport: http(devnet.rpcUrl),
      chain: chain(),
    })
    await client().waitForTransactionReceipt({
      hash: await funder.writeContract({
        address: PUSD_TOKEN.address,
        abi: testErc20Abi,
        functionName: 'transfer',
        args: [user.account.address, amount],
      }),
    })
    const allowance = async () =>
      AllowanceResponse.parse(
        await ok(
          await t.get(
            `/v1/convert/allowance?${query({ tokenAddress: PUSD, userAddress: user.id })}`,
          ),
        ),
      ).allowance
    expect(await allowance()).toBe('0')

    // Before the approval the swap cannot be simulated: the build still answers, with a fixed gas.
    const early = await build(PUSD, PRT, amount, user.id)
    expect(early.eip155.gas).toBe('180000')
    expect(early.amount).toBe('0')

    const approve = BuildApproveResponse.parse(
      await ok(
        await t.get(
          `/v1/convert/build-approve?${query({ userAddress: user.id, from: PUSD, to: PRT, amount: amount.toString() })}`,
        ),
      ),
    ).tx
    expect(approve).toMatchObject({ from: user.id, to: PUSD, value: '0' })
    expect(decodeFunctionData({ abi: erc20Abi, data: approve.data as Hex })).toEqual({
      functionName: 'approve',
      args: [DEVNET_AMM.router, amount],
    })
    expect((await send(user, approve)).status).toBe('success')
    expect(await allowance()).toBe(amount.toString())

    const q = await quote(PUSD, PRT, amount, user.id)
    const tx = await build(PUSD, PRT, amount, user.id)
    expect(decodeFunctionData({ abi: uniswapV2RouterAbi, data: tx.data as Hex }).functionName).toBe(
      'swapExactTokensForTokens',
    )
    expect(tx.eip155.gas).not.toBe('180000')
    expect((await send(user, tx)).status).toBe('success')
    expect(await balanceOf(PUSD_TOKEN.address, user.account.address)).toBe(0n)
    expect(await balanceOf(PRT_TOKEN.address, user.account.address)).toBe(BigInt(q.toAmount))
    expect(await allowance()).toBe('0')

    // Without an amount the approval is unlimited; the native token needs none.
    const unlimited = BuildApproveResponse.parse(
      await ok(
        await t.get(
          `/v1/convert/build-approve?${query({ userAddress: user.id, from: PRT, to: ETH })}`,
        ),
      ),
    ).tx
    expect(decodeFunctionData({ abi: erc20Abi, data: unlimited.data as Hex }).args).toEqual([
      DEVNET_AMM.router,
      maxUint256,
    ])
    expect(unlimited.to).toBe(PRT)
    await expectError(
      await t.get(
        `/v1/convert/build-approve?${query({ userAddress: user.id, from: ETH, to: PRT })}`,
      ),
      400,
      { code: 'INVALID_REQUEST', details: expect.stringContaining('needs no approval') },
    )
    const native = await t.get(
      `/v1/convert/allowance?${query({ tokenAddress: ETH, userAddress: user.id })}`,
    )
    expect(AllowanceResponse.parse(await ok(native)).allowance).toBe(maxUint256.toString())
  })

  test('PRT → ETH swaps through swapExactTokensForETH', async () => {
    const user = await newUser('1')
    const q0 = await quote(ETH, PRT, parseEther('0.5'), user.id)
    expect((await send(user, await build(ETH, PRT, parseEther('0.5'), user.id))).status).toBe(
      'success',
    )
    const prt = BigInt(q0.toAmount)
    await send(
      user,
      BuildApproveResponse.parse(
        await ok(
          await t.get(`/v1/convert/build-approve?${query({ userAddress: user.id, from: PRT })}`),
        ),
      ).tx,
    )
    const q = await quote(PRT, ETH, prt, user.id)
    const tx = await build(PRT, ETH, prt, user.id)
    expect(decodeFunctionData({ abi: uniswapV2RouterAbi, data: tx.data as Hex }).functionName).toBe(
      'swapExactTokensForETH',
    )
    const before = await client().getBalance({ address: user.account.address })
    const receipt = await send(user, tx)
    expect(receipt.status).toBe('success')
    expect(await client().getBalance({ address: user.account.address })).toBe(
      before + BigInt(q.toAmount) - receipt.gasUsed * receipt.effectiveGasPrice,
    )
  })

  test('a large trade front-running the swap makes it revert; the user keeps their ETH but the gas', async () => {
    const user = await newUser()
    const amount = parseEther('1')
    const tx = await build(ETH, PRT, amount, user.id)
    // Someone buys PRT with 50 ETH first: the price moves far more than the 1 % allowed.
    const whale = createWalletClient({
      account: privateKeyToAccount(DEV_ACCOUNTS[2].privateKey),
      transport: http(devnet.rpcUrl),
      chain: chain(),
    })
    const front = await client().waitForTransactionReceipt({
      hash: await whale.writeContract({
        address: DEVNET_AMM.router,
        abi: uniswapV2RouterAbi,
        functionName: 'swapExactETHForTokens',
        args: [0n, [DEVNET_AMM.weth, PRT_TOKEN.address], DEV_ACCOUNTS[2].address, 2n ** 40n],
        value: parseEther('50'),
      }),
    })
    expect(front.status).toBe('success')
    const before = await client().getBalance({ address: user.account.address })
    const receipt = await send(user, tx)
    expect(receipt.status).toBe('reverted')
    expect(await balanceOf(PRT_TOKEN.address, user.account.address)).toBe(0n)
    expect(await client().getBalance({ address: user.account.address })).toBe(
      before - receipt.gasUsed * receipt.effectiveGasPrice,
    )
    // Built again now, the swap goes through at the new price.
    expect((await send(user, await build(ETH, PRT, amount, user.id))).status).toBe('success')
  })
})

describe('POST /v1/convert/build-transaction input', () => {
  test('slippage, estimation and bad bodies', async () => {
    const user = await newUser('0.5')
    // disableEstimate: the fixed figure.
    const fixed = await build(ETH, PUSD, parseEther('0.1'), user.id, { disableEstimate: true })
    expect(fixed.eip155.gas).toBe('180000')
    // Slippage 5 % lowers the minimum accordingly; left out it is the spec's 1 %.
    const q = await quote(ETH, PUSD, parseEther('0.1'), user.id)
    const minOut = async (body: Record<string, unknown>) => {
      const response = await t.post('/v1/convert/build-transaction', {
        amount: parseEther('0.1').toString(),
        from: ETH,
        to: PUSD,
        userAddress: user.id,
        ...body,
      })
      const { tx } = BuildTransactionResponse.parse(await ok(response))
      return decodeFunctionData({ abi: uniswapV2RouterAbi, data: tx.data as Hex }).args[0]
    }
    expect(await minOut({ eip155: { slippage: 5 } })).toBe((BigInt(q.toAmount) * 95n) / 100n)
    expect(await minOut({ eip155: { slippage: '0.5' } })).toBe((BigInt(q.toAmount) * 995n) / 1000n)
    expect(await minOut({})).toBe((BigInt(q.toAmount) * 99n) / 100n)

    // More ETH than the user has: the simulation fails, and says so.
    await expectError(
      await t.post('/v1/convert/build-transaction', {
        amount: parseEther('2').toString(),
        eip155: { slippage: 1 },
        from: ETH,
        to: PUSD,
        userAddress: user.id,
      }),
      400,
      { code: 'SWAP_WOULD_FAIL', message: 'The swap would fail' },
    )
    const body = {
      amount: '1000',
      eip155: { slippage: 1 },
      from: ETH,
      to: PUSD,
      userAddress: user.id,
    }
    for (const slippage of [0, -1, 51, 'lots'])
      await expectError(
        await t.post('/v1/convert/build-transaction', { ...body, eip155: { slippage } }),
        400,
        { code: 'INVALID_REQUEST', details: expect.stringContaining('eip155.slippage') },
      )
    await expectError(
      await t.post('/v1/convert/build-transaction', { ...body, amount: '0' }),
      400,
      {
        code: 'INVALID_AMOUNT',
      },
    )
    await expectError(
      await t.post('/v1/convert/build-transaction', {
        ...body,
        to: caip(PUSD_TOKEN.address, 'eip155:10'),
      }),
      400,
      { code: 'NETWORK_MISMATCH' },
    )
    await expectError(
      await t.post('/v1/convert/build-transaction', {
        ...body,
        from: caip(NATIVE, 'eip155:5'),
        to: caip(PUSD_TOKEN.address, 'eip155:5'),
        userAddress: caip(user.account.address, 'eip155:5'),
      }),
      400,
      { code: 'SWAP_NETWORK_NOT_SUPPORTED', message: 'Network not supported for Swaps' },
    )
    await expectError(await t.post('/v1/convert/build-transaction', 'not json'), 400, {
      code: 'INVALID_REQUEST',
    })
    const plain = await t.send('POST', '/v1/convert/build-transaction', undefined, {
      'content-type': 'text/plain',
    })
    expect(plain.status).toBe(415)
  })
})

describe('GET /v1/convert/allowance and /gas-price', () => {
  test('allowance refuses unknown tokens and mixed networks', async () => {
    const user = caip(DEV_ACCOUNTS[3].address)
    await expectError(
      await t.get(
        `/v1/convert/allowance?${query({ tokenAddress: caip('0x2222222222222222222222222222222222222222'), userAddress: user })}`,
      ),
      400,
      { code: 'UNKNOWN_TOKEN' },
    )
    await expectError(
      await t.get(
        `/v1/convert/allowance?${query({ tokenAddress: PUSD, userAddress: caip(DEV_ACCOUNTS[3].address, 'eip155:10') })}`,
      ),
      400,
      { code: 'NETWORK_MISMATCH' },
    )
    await expectError(await t.get(`/v1/convert/allowance?tokenAddress=${PUSD}`), 400, {
      code: 'INVALID_REQUEST',
    })
  })

  test('gas price tiers come from the chain; other networks get the spec’s error', async () => {
    const [body, price] = await Promise.all([
      t.get(`/v1/convert/gas-price?chainId=${CHAIN}`).then(ok),
      client().getGasPrice(),
    ])
    expect(GasPriceResponse.parse(body)).toEqual({
      standard: price.toString(),
      fast: ((price * 6n) / 5n).toString(),
      instant: ((price * 3n) / 2n).toString(),
    })
    await expectError(await t.get('/v1/convert/gas-price?chainId=eip155:5'), 400, {
      code: 'GAS_PRICE_NETWORK_NOT_SUPPORTED',
      message: 'Network not supported for Gas Price',
    })
    await expectError(await t.get('/v1/convert/gas-price?chainId=eip155:8453'), 503, {
      code: 'SWAP_NOT_CONFIGURED',
      details: expect.stringContaining('No RPC upstream'),
    })
  })
})

describe('configuration', () => {
  test('PORTHOLE_SWAP_ROUTERS adds a chain: its router, its tokens, on its upstream', async () => {
    // Stand-in: the devnet's AMM, named as chain 11155111 (not a spec swap network).
    const chain = 'eip155:11155111'
    const broken = 'eip155:11155420'
    vi.stubEnv(
      'PORTHOLE_SWAP_ROUTERS',
      JSON.stringify({
        [chain]: {
          router: DEVNET_AMM.router,
          weth: DEVNET_AMM.weth,
          native: { name: 'Sepolia Ether', symbol: 'ETH', decimals: 18 },
          tokens: [{ ...PUSD_TOKEN, logoUri: 'https://tokens.example/pusd.png' }],
        },
        // A mistake: the "router" is an account without code.
        [broken]: { router: DEV_ACCOUNTS[9].address, weth: DEVNET_AMM.weth },
      }),
    )
    const app = await createTestApp({
      upstreams: { [chain]: devnet.rpcUrl, [broken]: devnet.rpcUrl },
    })
    try {
      const { tokens } = ConvertTokensResponse.parse(
        await ok(await app.get(`/v1/convert/tokens?chainId=${chain}`)),
      )
      expect(
        tokens.map((token) => [token.name, token.address, token.logoUri.slice(0, 24)]),
      ).toEqual([
        ['Sepolia Ether', `${chain}:${NATIVE}`, 'http://api.test/public/g'],
        ['Porthole USD', `${chain}:${getAddress(PUSD_TOKEN.address)}`, 'https://tokens.example/p'],
      ])
      const response = await app.get(
        `/v1/convert/quotes?${query({ amount: '1000000', from: `${chain}:${PUSD_TOKEN.address}`, to: `${chain}:${NATIVE}`, userAddress: `${chain}:${DEV_ACCOUNTS[1].address}` })}`,
      )
      const q = ConvertQuotesResponse.parse(await ok(response)).quotes[0]!
      expect(q.toAmount).toBe(
        (await routerQuote(1_000_000n, [PUSD_TOKEN.address, DEVNET_AMM.weth])).toString(),
      )
      // No price for this chain's ETH in the table: no USD figure.
      expect(q.networkFeeUsd).toBeNull()
      // PRT is not on this chain's list.
      await expectError(
        await app.get(
          `/v1/convert/quotes?${query({ amount: '1', from: `${chain}:${PRT_TOKEN.address}`, to: `${chain}:${NATIVE}`, userAddress: `${chain}:${DEV_ACCOUNTS[1].address}` })}`,
        ),
        400,
        { code: 'UNKNOWN_TOKEN' },
      )
      await expectError(
        await app.get(
          `/v1/convert/quotes?${query({ amount: '1', from: `${broken}:${NATIVE}`, to: `${broken}:${PUSD_TOKEN.address}`, userAddress: `${broken}:${DEV_ACCOUNTS[1].address}` })}`,
        ),
        503,
        { code: 'SWAP_UNAVAILABLE', details: expect.stringContaining('factory()') },
      )
    } finally {
      await app.close()
      vi.unstubAllEnvs()
    }
  })
})

describe('the project switch', () => {
  test('a project with swaps off is refused (403), whatever the endpoint', async () => {
    await setProjectFeatures(t.db, { projectId: PROJECT_ID, features: { swaps: false } })
    try {
      for (const path of [
        `/v1/convert/tokens?${query({ chainId: 'eip155:31337' })}`,
        `/v1/convert/gas-price?${query({ chainId: 'eip155:31337' })}`,
      ]) {
        const answer = await t.get(path)
        expect(answer.status).toBe(403)
        expect(await answer.json()).toEqual({
          code: 'SWAPS_DISABLED',
          message: 'Swaps are not enabled for the project',
        })
      }
    } finally {
      await setProjectFeatures(t.db, { projectId: PROJECT_ID, features: { swaps: ['1inch'] } })
    }
    expect((await t.get(`/v1/convert/tokens?${query({ chainId: 'eip155:31337' })}`)).status).toBe(
      200,
    )
  })
})
