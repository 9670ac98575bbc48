/**
 * The smart-session endpoints over a real database (both drivers) and a real anvil: the account
 * is a stand-in contract with `PortholeSimpleAccount`'s `sessions(key)` getter and ERC-1271.
 */
import {
  deployAccountAbstraction,
  devnetChain,
  type StartAnvilReturnType,
  startAnvil,
} from '@porthole/devnet'
import { DEVNET_AA } from '@porthole/shared/devnet'
import {
  portholeSessionsAbi,
  SESSION_KIND,
  simpleAccountFactoryAbi,
  toSimpleAccount,
} from '@porthole/shared/simpleAccount'
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { DRIVERS } from '../../test/databases.js'
import { freePort } from '../../test/freePort.js'
import {
  deploySessionAccountStub,
  type SessionAccountStub,
  type StubSession,
} from '../../test/sessionAccountStub.js'
import { createTestApp, MODAL_ORIGIN, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import { registerSessionMessage, revokeSessionMessage, type SmartSession } from './routes.js'
import { saveSession } from './store.js'

const CHAIN = 'eip155:31337'
const owner = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
const target = getAddress('0x1111111111111111111111111111111111111111')
const recipient = getAddress('0x2222222222222222222222222222222222222222')
const paymaster = getAddress('0x4444444444444444444444444444444444444444')
const nowSeconds = () => Math.floor(Date.now() / 1000)

const signer = { type: 'keys', data: { keys: [{ type: 'secp256k1', publicKey: '0x04ab' }] } }
const permissions = [{ type: 'contract-call', data: { address: target, functions: ['transfer'] } }]

/** A fresh session key's pci (lower-case address). */
const newPci = () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase()

let anvil: StartAnvilReturnType
let stub: SessionAccountStub
let t: TestApp
/** Test apps to close after each test. */
const opened: TestApp[] = []

beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
  stub = await deploySessionAccountStub(anvil.rpcUrl, owner.address)
})
afterAll(async () => {
  await anvil?.stop()
})
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close()
})

/** A test app over a fresh database, as `t`, with the chain's upstream. */
async function open(upstream: string, driver: (typeof DRIVERS)[number] = 'sqlite') {
  t = await createTestApp({ upstreams: { [CHAIN]: upstream } }, { driver, catalogue: false })
  opened.push(t)
}

/** The path of an account's sessions (CAIP-10 of the stub unless another is given). */
const path = (account: string = `${CHAIN}:${stub.address}`, suffix = '') =>
  `/v1/sessions/${account}${suffix}`

/** Grants `pci` on the stub (active, until `validUntil`). */
async function grant(pci: string, session: Partial<StubSession> = {}) {
  const validUntil = session.validUntil ?? nowSeconds() + 3600
  await stub.setSession(getAddress(pci), {
    target,
    recipient,
    spendLimit: 5_000_000n,
    spent: 0n,
    validAfter: 0,
    validUntil,
    active: true,
    kind: 1,
    paymaster,
    ...session,
  })
  return validUntil
}

/** Registers `pci` on the stub, signed by its owner (the stub's ERC-1271) unless `extra` says. */
async function register(pci: string, expiry: number, extra: Record<string, unknown> = {}) {
  const origin = (extra.origin as string | undefined) ?? 'https://app.example'
  const signature = await owner.signMessage({
    message: registerSessionMessage({ pci, expiry, origin }),
  })
  const response = await t.post(path(), {
    pci,
    signer,
    permissions,
    expiry,
    origin,
    signature,
    ...extra,
  })
  return { response, body: (await response.json()) as Record<string, unknown> }
}

async function list(account?: string): Promise<SmartSession[]> {
  const response = await t.get(path(account))
  expect(response.status).toBe(200)
  return ((await response.json()) as { pcis: SmartSession[] }).pcis
}

async function revoke(pci: string, signature: string, account?: string) {
  const response = await t.post(path(account, '/revoke'), { pci, signature })
  return { response, body: (await response.json()) as Record<string, unknown> }
}

describe.each(DRIVERS)('smart sessions on %s', (driver) => {
  const app = (upstream: string = anvil.rpcUrl) => open(upstream, driver)

  test('registration needs no session on chain yet (the wallet lists a grant before installing it); the listing says what the chain holds', async () => {
    await app()
    const pci = newPci()
    const expiry = nowSeconds() + 3600
    // Not on chain yet: listed, and not active until the chain holds it.
    const pending = await register(pci, expiry)
    expect(pending.response.status, JSON.stringify(pending.body)).toBe(200)
    expect(pending.body).toMatchObject({ pci, status: 'revoked', onChain: { active: false } })
    expect(await list()).toMatchObject([{ pci, status: 'revoked' }])
    // Installed: active, with its terms.
    await grant(pci, { validUntil: expiry })
    expect(await list()).toMatchObject([
      { pci, status: 'active', onChain: { active: true, kind: 'erc20', paymaster } },
    ])
    // A grant of the key with another expiry, registered before its install lands: one entry.
    expect((await register(pci, expiry + 1)).response.status).toBe(200)
    expect(await list()).toMatchObject([{ pci, expiry: expiry + 1, status: 'active' }])
  })

  test('a registered session is listed with what the chain holds, and registering again replaces it', async () => {
    await app()
    const pci = newPci()
    const expiry = await grant(pci, { spendLimit: 10n ** 30n, spent: 7n })
    const before = Date.now()
    // Without an origin in the body, the request's Origin is kept.
    const first = await t.post(
      path(),
      {
        pci,
        signer,
        permissions,
        policies: [{ type: 'gas-limit', data: { limit: '1' } }],
        expiry,
        signature: await owner.signMessage({ message: registerSessionMessage({ pci, expiry }) }),
      },
      { origin: MODAL_ORIGIN },
    )
    expect(first.status).toBe(200)

    const [session, ...rest] = await list()
    expect(rest).toEqual([])
    expect(session).toEqual({
      pci,
      chainId: CHAIN,
      address: `${CHAIN}:${stub.address}`,
      project: { id: PROJECT_ID, origin: MODAL_ORIGIN },
      signer,
      permissions,
      policies: [{ type: 'gas-limit', data: { limit: '1' } }],
      expiry,
      createdAt: expect.any(String),
      revokedAt: null,
      onChain: {
        active: true,
        target,
        recipient,
        spendLimit: '1000000000000000000000000000000',
        spent: '7',
        validUntil: expiry,
        kind: 'erc20',
        paymaster,
        token: null,
      },
      status: 'active',
    } satisfies SmartSession)
    expect(Date.parse(session!.createdAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(await first.json()).toEqual(session)

    // Any spelling of the account's address lists the same sessions.
    expect(await list(`${CHAIN}:${stub.address.toLowerCase()}`)).toEqual([session])
    expect(await list(`${CHAIN}:${'0x'}${'0'.repeat(40)}`)).toEqual([])
    expect(await list(`eip155:31338:${stub.address}`)).toEqual([])

    // Again for the same key: one entry, the new body, the app's origin this time.
    const other = [{ type: 'native-token-recurring-allowance', data: { allowance: '0x1' } }]
    expect((await register(pci, expiry, { permissions: other })).response.status).toBe(200)
    const [again, ...none] = await list()
    expect(none).toEqual([])
    expect(again).toMatchObject({
      pci,
      permissions: other,
      policies: [],
      project: { origin: 'https://app.example' },
    })
  })

  test('registration needs the account’s signature of the key, expiry and origin', async () => {
    await app()
    const pci = newPci()
    const expiry = await grant(pci)
    const message = registerSessionMessage({ pci, expiry, origin: 'https://app.example' })
    for (const signature of [
      await stranger.signMessage({ message }),
      // Signed for another app, or another expiry: not this registration.
      await owner.signMessage({
        message: registerSessionMessage({ pci, expiry, origin: 'https://evil.example' }),
      }),
      await owner.signMessage({ message: registerSessionMessage({ pci, expiry: expiry + 1 }) }),
    ]) {
      const { response, body } = await register(pci, expiry, { signature })
      expect(response.status).toBe(401)
      expect(body).toMatchObject({ code: 'INVALID_SESSION_SIGNATURE' })
    }
    const unsigned = await t.post(path(), { pci, signer, permissions, expiry })
    expect(unsigned.status).toBe(400)
    expect(await list()).toEqual([])
    expect((await register(pci, expiry)).response.status).toBe(200)
    expect(await list()).toMatchObject([{ pci, project: { origin: 'https://app.example' } }])
  })

  test('status: newest first; expired once expiry passed; revoked when the chain or the user says so', async () => {
    await app()
    const expired = newPci()
    const revokedOnChain = newPci()
    const active = newPci()
    await register(expired, await grant(expired, { validUntil: nowSeconds() - 60 }))
    await register(revokedOnChain, await grant(revokedOnChain))
    await register(active, await grant(active))
    await grant(revokedOnChain, { active: false, validUntil: 0 })

    const sessions = await list()
    expect(sessions.map((session) => [session.pci, session.status])).toEqual([
      [active, 'active'],
      [revokedOnChain, 'revoked'],
      [expired, 'expired'],
    ])
    expect(sessions[1]).toMatchObject({ revokedAt: null, onChain: { active: false } })

    const signature = await owner.signMessage({ message: revokeSessionMessage(active) })
    expect((await revoke(active, signature)).response.status).toBe(200)
    const [revoked] = await list()
    expect(revoked).toMatchObject({ pci: active, status: 'revoked', onChain: { active: true } })
    expect(Date.parse(revoked!.revokedAt as string)).toBeGreaterThan(Date.now() - 60_000)
  })

  test("the account's ERC-1271 signature revokes; the time of the first revoke is kept", async () => {
    await app()
    const pci = newPci()
    await register(pci, await grant(pci))
    const signature = await owner.signMessage({ message: revokeSessionMessage(pci) })
    const first = await revoke(pci, signature)
    expect(first.response.status).toBe(200)
    expect(first.body).toEqual({ success: true })
    const [once] = await list()
    expect(once?.revokedAt).not.toBeNull()

    await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await revoke(pci, signature)).body).toEqual({ success: true })
    const [twice] = await list()
    expect(twice?.revokedAt).toBe(once?.revokedAt)
  })

  test('a revoked grant cannot be registered again; a new grant of the key can', async () => {
    await app()
    const pci = newPci()
    const expiry = await grant(pci)
    await register(pci, expiry)
    await revoke(pci, await owner.signMessage({ message: revokeSessionMessage(pci) }))

    // The wallet's on-chain revoke is not mined yet: the old grant is still active there.
    const replay = await register(pci, expiry)
    expect(replay.response.status).toBe(409)
    expect(replay.body.code).toBe('SESSION_REVOKED')
    expect((await list())[0]?.status).toBe('revoked')

    const renewed = await grant(pci, { validUntil: expiry + 600 })
    expect((await register(pci, renewed)).response.status).toBe(200)
    expect(await list()).toMatchObject([{ pci, status: 'active', revokedAt: null }])
  })

  test('another key cannot revoke: a stranger, a wrong message, a malformed signature are 401', async () => {
    await app()
    const pci = newPci()
    await register(pci, await grant(pci))
    const message = revokeSessionMessage(pci)
    for (const signature of [
      await stranger.signMessage({ message }),
      await owner.signMessage({ message: revokeSessionMessage(newPci()) }),
      await owner.signMessage({ message: `Revoke session ${pci.toUpperCase()}` }),
      `0x${'11'.repeat(65)}`,
    ]) {
      const { response, body } = await revoke(pci, signature)
      expect(response.status).toBe(401)
      expect(body.code).toBe('INVALID_SESSION_SIGNATURE')
    }
    expect((await list())[0]).toMatchObject({ status: 'active', revokedAt: null })
  })

  test("a plain account (EOA) revokes with its own signature, not with another's", async () => {
    await app()
    const eoa = privateKeyToAccount(generatePrivateKey())
    const pci = newPci()
    // An EOA holds no sessions on chain, so the row is written as registration would.
    await saveSession(t.db, {
      chainId: CHAIN,
      address: eoa.address,
      pci,
      projectId: PROJECT_ID,
      origin: null,
      signer,
      permissions,
      policies: [],
      expiry: nowSeconds() + 60,
      createdAt: Date.now(),
    })
    const account = `${CHAIN}:${eoa.address}`
    const message = revokeSessionMessage(pci)
    expect(
      (await revoke(pci, await stranger.signMessage({ message }), account)).response.status,
    ).toBe(401)
    expect((await revoke(pci, await eoa.signMessage({ message }), account)).body).toEqual({
      success: true,
    })
    expect((await list(account))[0]).toMatchObject({
      status: 'revoked',
      onChain: { active: false },
    })
  })

  test('an unknown pci is 404, for this account even when another holds it', async () => {
    await app()
    const pci = newPci()
    await register(pci, await grant(pci))
    const signature = await owner.signMessage({ message: revokeSessionMessage(pci) })
    const unknown = await revoke(newPci(), signature)
    expect(unknown.response.status).toBe(404)
    expect(unknown.body.code).toBe('SESSION_NOT_FOUND')
    const elsewhere = await revoke(pci, signature, `eip155:31338:${stub.address}`)
    expect(elsewhere.response.status).toBe(404)
  })

  test('malformed account ids are 400 on every endpoint', async () => {
    await app()
    const pci = newPci()
    for (const account of [
      stub.address,
      `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${stub.address}`,
      `eip155:abc:${stub.address}`,
      `eip155:031337:${stub.address}`,
      `eip155:31337:${stub.address.slice(0, -1)}`,
      `eip155:31337:${stub.address}:1`,
      `eip155:99999999999999999:${stub.address}`,
    ]) {
      for (const response of [
        await t.get(path(encodeURIComponent(account))),
        await t.post(path(encodeURIComponent(account)), { pci, signer, permissions, expiry: 1 }),
        await t.post(path(encodeURIComponent(account), '/revoke'), { pci, signature: '0x00' }),
      ]) {
        expect(response.status, account).toBe(400)
        expect(await response.json()).toMatchObject({
          code: 'INVALID_ACCOUNT_ID',
          message:
            'The address must be an eip155 CAIP-10 account id (eip155:<chain id>:0x<40 hex digits>)',
        })
      }
    }
    // Percent-encoded colons name the same account.
    expect((await t.get(path(encodeURIComponent(`${CHAIN}:${stub.address}`)))).status).toBe(200)
  })

  test('malformed bodies are 400, oversize ones 413, and a chain without an upstream 400', async () => {
    await app()
    const pci = newPci()
    const expiry = nowSeconds() + 60
    for (const body of [
      { pci: pci.toUpperCase().replace('0X', '0x'), signer, permissions, expiry },
      { pci: pci.slice(0, -2), signer, permissions, expiry },
      { pci, permissions, expiry },
      { pci, signer: { data: {} }, permissions, expiry },
      { pci, signer, permissions: [], expiry },
      { pci, signer, permissions, expiry: String(expiry) },
      { pci, signer, permissions, expiry: 1.5 },
      { pci, signer, permissions },
    ]) {
      const response = await t.post(path(), body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(((await response.json()) as { code: string }).code).toBe('INVALID_REQUEST')
    }
    const noSignature = await t.post(path(undefined, '/revoke'), { pci, signature: 'nothex' })
    expect(noSignature.status).toBe(400)

    const big = [{ type: 'contract-call', data: { blob: 'x'.repeat(17 * 1024) } }]
    const oversize = await t.post(path(), { pci, signer, permissions: big, expiry })
    expect(oversize.status).toBe(413)
    expect(((await oversize.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE')
    const oversizeRevoke = await t.post(path(undefined, '/revoke'), {
      pci,
      signature: `0x${'ab'.repeat(9000)}`,
    })
    expect(oversizeRevoke.status).toBe(413)

    const unsupported = await t.post(path(`eip155:1:${stub.address}`), {
      pci,
      signer,
      permissions,
      expiry,
      signature: '0x00',
    })
    expect(unsupported.status).toBe(400)
    expect(await unsupported.json()).toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
      details: 'eip155:1 is not supported for sessions',
    })
  })

  test('when the chain does not answer: listing has onChain null, registration is 503', async () => {
    await app(`http://127.0.0.1:${await freePort()}`)
    const pci = newPci()
    const expiry = nowSeconds() + 60
    await saveSession(t.db, {
      chainId: CHAIN,
      address: stub.address,
      pci,
      projectId: PROJECT_ID,
      origin: null,
      signer,
      permissions,
      policies: [],
      expiry,
      createdAt: Date.now(),
    })
    expect(await list()).toMatchObject([{ pci, onChain: null, status: 'active' }])
    const { response, body } = await register(newPci(), expiry)
    expect(response.status).toBe(503)
    expect(body.code).toBe('CHAIN_UNAVAILABLE')
  })

  test('the /v1 project and CORS rules apply', async () => {
    await app()
    const url = path()
    // No project, or an unknown one.
    expect((await t.app.request(url)).status).toBe(400)
    expect((await t.app.request(`${url}?projectId=nobody`)).status).toBe(403)
    // Preflights: the frame origins only.
    const preflight = (origin: string, suffix = '') =>
      t.app.request(`${url}${suffix}?projectId=${PROJECT_ID}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      })
    const allowed = await preflight(MODAL_ORIGIN, '/revoke')
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(MODAL_ORIGIN)
    const refused = await preflight('https://dapp.example')
    expect(refused.status).toBe(403)
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
    // Answers carry CORS headers for a frame origin only.
    const fromModal = await t.get(url, { origin: MODAL_ORIGIN })
    expect(fromModal.headers.get('access-control-allow-origin')).toBe(MODAL_ORIGIN)
    const fromElsewhere = await t.get(url, { origin: 'https://dapp.example' })
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull()
    // A form post (no JSON content type) is refused before anything is read.
    const form = await t.send('POST', url, undefined, { 'content-type': 'text/plain' })
    expect(form.status).toBe(415)
  })
})

describe('a real PortholeSimpleAccount (the devnet factory)', () => {
  let client: PublicClient
  beforeAll(async () => {
    client = createPublicClient({
      chain: devnetChain({ chainId: 31337, rpcUrl: anvil.rpcUrl }),
      transport: http(anvil.rpcUrl),
    })
    await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
  })
  beforeEach(async () => {
    await open(anvil.rpcUrl)
  })

  /** A new owner with ETH, its wallet client and its (not yet deployed) account. */
  async function newAccount() {
    const key = privateKeyToAccount(generatePrivateKey())
    await client.request({
      method: 'anvil_setBalance' as never,
      params: [key.address, '0x56bc75e2d63100000'] as never, // 100 ETH
    })
    const wallet = createWalletClient({
      account: key,
      chain: devnetChain({ chainId: 31337, rpcUrl: anvil.rpcUrl }),
      transport: http(anvil.rpcUrl),
    })
    const account = await toSimpleAccount({ client, owner: key })
    return { key, wallet, account, address: await account.getAddress() }
  }

  test("lists the owner's grant on chain (kind, paymaster); the deployed account's ERC-1271 signature revokes", async () => {
    const { key, wallet, account, address } = await newAccount()
    const mined = async (hash: Hex) => {
      expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
    }
    await mined(
      await wallet.writeContract({
        address: DEVNET_AA.accountFactory,
        abi: simpleAccountFactoryAbi,
        functionName: 'createAccount',
        args: [key.address, 0n],
      }),
    )
    const pci = newPci()
    const expiry = nowSeconds() + 3600
    await mined(
      await wallet.writeContract({
        address,
        abi: portholeSessionsAbi,
        functionName: 'grantSession',
        args: [
          getAddress(pci),
          target,
          ['0xa9059cbb'],
          recipient,
          25_000_000n,
          0,
          expiry,
          SESSION_KIND.erc20,
          DEVNET_AA.paymaster,
        ],
      }),
    )
    const caip10 = `${CHAIN}:${address}`
    const registered = await t.post(path(caip10), {
      pci,
      signer,
      permissions,
      expiry,
      signature: await account.signMessage({ message: registerSessionMessage({ pci, expiry }) }),
    })
    expect(registered.status, await registered.clone().text()).toBe(200)
    expect(await list(caip10)).toMatchObject([
      {
        pci,
        status: 'active',
        onChain: {
          active: true,
          target,
          recipient,
          spendLimit: '25000000',
          spent: '0',
          kind: 'erc20',
          paymaster: DEVNET_AA.paymaster,
        },
      },
    ])

    const message = revokeSessionMessage(pci)
    // The owner's plain signature is not the account's (the account signs a replay-safe hash).
    expect((await revoke(pci, await key.signMessage({ message }), caip10)).response.status).toBe(
      401,
    )
    expect((await revoke(pci, await account.signMessage({ message }), caip10)).body).toEqual({
      success: true,
    })
    // The wallet's own revoke, on chain.
    await mined(
      await wallet.writeContract({
        address,
        abi: portholeSessionsAbi,
        functionName: 'revokeSession',
        args: [getAddress(pci)],
      }),
    )
    expect(await list(caip10)).toMatchObject([
      { pci, status: 'revoked', onChain: { active: false, validUntil: 0 } },
    ])
  })

  test('an account not deployed yet revokes with its ERC-6492 signature', async () => {
    const { account, address } = await newAccount()
    expect(await client.getCode({ address })).toBeUndefined()
    const pci = newPci()
    await saveSession(t.db, {
      chainId: CHAIN,
      address,
      pci,
      projectId: PROJECT_ID,
      origin: null,
      signer,
      permissions,
      policies: [],
      expiry: nowSeconds() + 60,
      createdAt: Date.now(),
    })
    const caip10 = `${CHAIN}:${address}`
    const signature = await account.signMessage({ message: revokeSessionMessage(pci) })
    expect(signature.endsWith('6492'.repeat(16))).toBe(true)
    const other = await newAccount()
    const foreign = await other.account.signMessage({ message: revokeSessionMessage(pci) })
    expect((await revoke(pci, foreign, caip10)).response.status).toBe(401)
    expect((await revoke(pci, signature, caip10)).body).toEqual({ success: true })
    expect((await list(caip10))[0]?.status).toBe('revoked')
  })
})
