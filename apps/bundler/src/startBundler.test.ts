import { createServer, type Server } from 'node:net'
import {
  devnetChain,
  entryPoint07RuntimeCode,
  type StartDevnetReturnType,
  startDevnet,
  toSimpleAccount,
} from '@porthole/devnet'
import { ENTRY_POINT_07 } from '@porthole/shared/devnet'
import { createPublicClient, http, parseEther, toHex } from 'viem'
import { createBundlerClient } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  BundlerPortInUseError,
  BundlerStartError,
  type StartBundlerReturnType,
  startBundler,
} from './startBundler.js'

const rpc = async (url: string, method: string, params: unknown[] = []) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await response.json()) as { result?: unknown; error?: { message: string } }
}

describe('on a devnet', { timeout: 60_000 }, () => {
  let devnet: StartDevnetReturnType
  let bundler: StartBundlerReturnType
  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, chainId: 31337, silent: true })
    const started = performance.now()
    bundler = await startBundler({
      port: 0,
      rpcUrl: devnet.rpcUrl,
      chainId: 31337,
      silent: true,
    })
    console.info(`bundler ready in ${Math.round(performance.now() - started)} ms`)
  }, 60_000)
  afterAll(async () => {
    await bundler?.stop()
    await devnet?.stop()
  })

  test('answers eth_supportedEntryPoints with EntryPoint v0.7, on loopback', async () => {
    expect(bundler.url).toBe(`http://127.0.0.1:${bundler.port}`)
    expect(await rpc(bundler.url, 'eth_supportedEntryPoints')).toMatchObject({
      result: [ENTRY_POINT_07],
    })
  })

  test('a user operation sent through it lands', async () => {
    const chain = devnetChain({ chainId: 31337, rpcUrl: devnet.rpcUrl })
    const client = createPublicClient({ chain, transport: http(devnet.rpcUrl) })
    const account = await toSimpleAccount({
      client,
      owner: privateKeyToAccount(generatePrivateKey()),
    })
    const address = await account.getAddress()
    await client.request({
      method: 'anvil_setBalance' as never,
      params: [address, toHex(parseEther('1'))] as never,
    })
    const to = privateKeyToAccount(generatePrivateKey()).address
    const bundlerClient = createBundlerClient({
      account,
      client,
      transport: http(bundler.url),
      pollingInterval: 50,
    })
    const started = performance.now()
    const hash = await bundlerClient.sendUserOperation({ calls: [{ to, value: 777n }] })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    console.info(`user operation landed in ${Math.round(performance.now() - started)} ms`)
    expect(receipt.success).toBe(true)
    expect(await rpc(bundler.url, 'eth_getUserOperationReceipt', [hash])).toMatchObject({
      result: { userOpHash: hash, success: true, sender: address },
    })
    expect(await client.getBalance({ address: to })).toBe(777n)
    expect((await client.getCode({ address }))?.length).toBeGreaterThan(2)
  })

  test('stop() ends alto and frees its port', async () => {
    const other = await startBundler({
      port: 0,
      rpcUrl: devnet.rpcUrl,
      chainId: 31337,
      silent: true,
    })
    await other.stop()
    await expect(fetch(other.url, { method: 'POST' })).rejects.toThrow()
    const server = await listen(other.port)
    server.close()
  })

  test('a taken port is refused with a clear error', async () => {
    await expect(
      startBundler({ port: bundler.port, rpcUrl: devnet.rpcUrl, chainId: 31337, silent: true }),
    ).rejects.toThrow(BundlerPortInUseError)
    await expect(
      startBundler({ port: bundler.port, rpcUrl: devnet.rpcUrl, chainId: 31337, silent: true }),
    ).rejects.toThrow(`Port ${bundler.port} is in use: the bundler cannot start`)
  })

  test('a devnet of another chain is refused', async () => {
    await expect(
      startBundler({ port: 0, rpcUrl: devnet.rpcUrl, chainId: 31338, silent: true }),
    ).rejects.toThrow(`answers chain id 31337, not 31338`)
  })

  test.runIf(process.platform === 'linux')('listens on the host asked for only', async () => {
    const other = await startBundler({
      port: 0,
      host: '127.0.0.2',
      rpcUrl: devnet.rpcUrl,
      chainId: 31337,
      silent: true,
    })
    try {
      expect(other.url).toBe(`http://127.0.0.2:${other.port}`)
      expect(await rpc(other.url, 'eth_supportedEntryPoints')).toMatchObject({
        result: [ENTRY_POINT_07],
      })
      await expect(rpc(`http://127.0.0.1:${other.port}`, 'eth_chainId')).rejects.toThrow()
    } finally {
      await other.stop()
    }
  })
})

describe('on a devnet without the ERC-4337 stack', { timeout: 60_000 }, () => {
  let bare: StartDevnetReturnType
  beforeAll(async () => {
    bare = await startDevnet({ port: 0, deploy: false, silent: true })
  })
  afterAll(() => bare?.stop())

  test('no EntryPoint: refused before alto starts', async () => {
    await expect(
      startBundler({ port: 0, rpcUrl: bare.rpcUrl, chainId: 31337, silent: true }),
    ).rejects.toThrow(`has no EntryPoint v0.7 at ${ENTRY_POINT_07}`)
  })

  test('alto exits early (its utility key has no ETH): the error says why', async () => {
    const client = createPublicClient({ transport: http(bare.rpcUrl) })
    await client.request({
      method: 'anvil_setCode' as never,
      params: [ENTRY_POINT_07, entryPoint07RuntimeCode()] as never,
    })
    const error = await startBundler({
      port: 0,
      rpcUrl: bare.rpcUrl,
      chainId: 31337,
      silent: true,
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BundlerStartError)
    expect((error as Error).message).toMatch(
      /^alto exited \(1\) before it was ready: TransactionExecutionError: The total cost/,
    )
  })
})

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen({ port, host: '127.0.0.1' }, () => resolve(server))
  })
}
