import {
  evmCoinType,
  IdentityResponse,
  NameAccount,
  NameSuggestionsResponse,
  nameMessage,
  ReverseNamesResponse,
} from '@porthole/shared'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { DRIVERS, type Driver } from '../../test/databases.js'
import { createTestApp, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import { ensureEmailUser } from '../auth/users.js'

const COIN_TYPE = evmCoinType(31337)
const alice = privateKeyToAccount(generatePrivateKey())
const bob = privateKeyToAccount(generatePrivateKey())
const now = () => Math.floor(Date.now() / 1000)

let t: TestApp
afterEach(async () => {
  vi.unstubAllEnvs()
  await t?.close()
})

/**
 * A test app where alice and bob are embedded-wallet users of the project: only such accounts
 * may register names (`squatting.test.ts` has the strangers).
 */
async function namesApp(driver: Driver = 'sqlite'): Promise<TestApp> {
  const app = await createTestApp({}, { driver, catalogue: false })
  for (const account of [alice, bob]) {
    const { user } = await ensureEmailUser(app.db, PROJECT_ID, `${account.address}@example.com`)
    await app.db.execute('UPDATE auth_users SET address = ? WHERE id = ?', [
      account.address.toLowerCase(),
      user.id,
    ])
  }
  return app
}

/** Signs the registration message of `name` with `signer` and posts it for `address`. */
async function register(
  name: string,
  signer: PrivateKeyAccount,
  options: { timestamp?: number; address?: string; message?: string; coinType?: number } = {},
) {
  const signed = nameMessage({ name, timestamp: options.timestamp ?? now() })
  const signature = await signer.signMessage({ message: signed })
  const response = await t.post('/v1/profile/account', {
    coin_type: options.coinType ?? COIN_TYPE,
    address: options.address ?? signer.address,
    message: options.message ?? signed,
    signature,
  })
  return { response, body: (await response.json()) as Record<string, unknown> }
}

/** The first reason's description of an error answer. */
function reason(body: Record<string, unknown>): string | undefined {
  return (body.reasons as { description: string }[] | undefined)?.[0]?.description
}

describe.each(DRIVERS)('the name registry on %s', (driver) => {
  test('a registered name resolves to its address by coin type, and the address back to it', async () => {
    t = await namesApp(driver)
    const { response, body } = await register('Alice-01.porthole.id', alice)
    expect(response.status, JSON.stringify(body)).toBe(200)
    expect(body.success).toBe(true)

    // Resolve (apiVersion 2): addresses by coin type; the name is stored lower-cased.
    const resolved = await t.get('/v1/profile/account/alice-01.porthole.id?apiVersion=2')
    expect(resolved.status).toBe(200)
    const account = NameAccount.parse(await resolved.json())
    expect(account).toMatchObject({ name: 'alice-01.porthole.id', attributes: {} })
    expect(account.addresses[String(COIN_TYPE)]?.address).toBe(alice.address)
    expect(Math.abs(account.registered - now())).toBeLessThan(5)
    // A bare label is read under the suffix; any case works.
    const bare = NameAccount.parse(await (await t.get('/v1/profile/account/ALICE-01')).json())
    expect(bare.name).toBe('alice-01.porthole.id')

    // Reverse: the account's names; /v1/identity: its primary name.
    const names = ReverseNamesResponse.parse(
      await (await t.get(`/v1/profile/reverse/${alice.address.toLowerCase()}`)).json(),
    )
    expect(names.map((n) => n.name)).toEqual(['alice-01.porthole.id'])
    const identity = IdentityResponse.parse(
      await (await t.get(`/v1/identity/${alice.address}`)).json(),
    )
    expect(identity).toEqual({ name: 'alice-01.porthole.id', avatar: null })

    // Someone else has none.
    expect(await (await t.get(`/v1/profile/reverse/${bob.address}`)).json()).toEqual([])
    expect(await (await t.get(`/v1/identity/${bob.address}`)).json()).toEqual({
      name: null,
      avatar: null,
    })
    const missing = await t.get('/v1/profile/account/nobody.porthole.id?apiVersion=2')
    expect(missing.status).toBe(404)
    expect(reason((await missing.json()) as Record<string, unknown>)).toBe(
      'No account has the name nobody.porthole.id',
    )
    // A name under another suffix is not this registry's: not found.
    expect((await t.get('/v1/profile/account/vitalik.eth')).status).toBe(404)
  })

  test('a taken name is refused, in any case; the first owner keeps it', async () => {
    t = await namesApp(driver)
    expect((await register('shared.porthole.id', alice)).response.status).toBe(200)
    const again = await register('SHARED.porthole.id', bob)
    expect(again.response.status).toBe(409)
    expect(again.body).toMatchObject({ code: 'NAME_TAKEN' })
    expect(reason(again.body)).toBe('Name is already taken')
    const account = NameAccount.parse(
      await (await t.get('/v1/profile/account/shared.porthole.id')).json(),
    )
    expect(account.addresses[String(COIN_TYPE)]?.address).toBe(alice.address)
    // Two registrations of one free name at once: exactly one wins.
    const results = await Promise.all([
      register('race.porthole.id', alice),
      register('race.porthole.id', bob),
    ])
    expect(results.map((r) => r.response.status).sort()).toEqual([200, 409])
  })

  test('an account may hold several names; the oldest is its primary name', async () => {
    t = await namesApp(driver)
    expect((await register('first.porthole.id', alice)).response.status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await register('second.porthole.id', alice)).response.status).toBe(200)
    const names = ReverseNamesResponse.parse(
      await (await t.get(`/v1/profile/reverse/${alice.address}?apiVersion=2`)).json(),
    )
    expect(names.map((n) => n.name)).toEqual(['first.porthole.id', 'second.porthole.id'])
    expect(await (await t.get(`/v1/identity/${alice.address}`)).json()).toMatchObject({
      name: 'first.porthole.id',
    })
  })

  test('suggestions: the name asked for with its state, then free alternatives', async () => {
    t = await namesApp(driver)
    await register('carol.porthole.id', alice)
    await register('carol1.porthole.id', bob)
    const body = NameSuggestionsResponse.parse(
      await (await t.get('/v1/profile/suggestions/carol?zone=porthole.id')).json(),
    )
    expect(body.suggestions[0]).toEqual({ name: 'carol.porthole.id', registered: true })
    expect(body.suggestions.length).toBeGreaterThan(1)
    expect(body.suggestions.length).toBeLessThanOrEqual(5)
    expect(body.suggestions.slice(1).every((s) => !s.registered)).toBe(true)
    expect(body.suggestions.map((s) => s.name)).not.toContain('carol1.porthole.id')
    const free = NameSuggestionsResponse.parse(
      await (await t.get('/v1/profile/suggestions/dave.porthole.id')).json(),
    )
    expect(free.suggestions[0]).toEqual({ name: 'dave.porthole.id', registered: false })
    // Another zone, or a name breaking the rule, is refused.
    expect((await t.get('/v1/profile/suggestions/dave?zone=reown.id')).status).toBe(400)
    const short = await t.get('/v1/profile/suggestions/dav')
    expect(short.status).toBe(400)
    expect(reason((await short.json()) as Record<string, unknown>)).toBe(
      'Name must be at least 4 characters long',
    )
  })
})

describe('registration checks', () => {
  test('the name rule: letters, digits and hyphens, at least 4 characters, under the suffix', async () => {
    t = await namesApp()
    const cases: [string, string][] = [
      ['bob.porthole.id', 'Name must be at least 4 characters long'],
      ['bo_b.porthole.id', 'Name can only contain letters, digits and hyphens'],
      ['b.ob.porthole.id', 'Name can only contain letters, digits and hyphens'],
      [`${'x'.repeat(64)}.porthole.id`, 'Name must be at most 63 characters long'],
      ['robert.eth', 'Name must end with .porthole.id'],
      ['robert', 'Name must end with .porthole.id'],
    ]
    for (const [name, description] of cases) {
      const { response, body } = await register(name, bob)
      expect(response.status, name).toBe(400)
      expect(body.code, name).toBe('INVALID_NAME')
      expect(reason(body), name).toBe(description)
    }
  })

  test('a signature by another account, or of another message, is refused', async () => {
    t = await namesApp()
    // Signed by bob, claimed for alice.
    const wrongSigner = await register('wrong-signer.porthole.id', bob, { address: alice.address })
    expect(wrongSigner.response.status).toBe(400)
    expect(wrongSigner.body.code).toBe('INVALID_NAME_REGISTRATION')
    expect(reason(wrongSigner.body)).toBe('The signature is not by the address')
    // Signed for one name, sent with another.
    const tampered = await register('innocent.porthole.id', alice, {
      message: nameMessage({ name: 'stolen.porthole.id', timestamp: now() }),
    })
    expect(tampered.response.status).toBe(400)
    expect(reason(tampered.body)).toBe('The signature is not by the address')
    // Neither name was registered.
    expect((await t.get('/v1/profile/account/stolen.porthole.id')).status).toBe(404)
    expect((await t.get('/v1/profile/account/wrong-signer.porthole.id')).status).toBe(404)
  })

  test('a message more than 10 minutes old, or dated in the future, is refused', async () => {
    t = await namesApp()
    const old = await register('late-comer.porthole.id', alice, { timestamp: now() - 601 })
    expect(old.response.status).toBe(400)
    expect(reason(old.body)).toBe('The message is more than 10 minutes old')
    const future = await register('early-bird.porthole.id', alice, { timestamp: now() + 3600 })
    expect(reason(future.body)).toBe('The message is dated in the future')
    expect(
      (await register('just-in-time.porthole.id', alice, { timestamp: now() - 590 })).response
        .status,
    ).toBe(200)
  })

  test('a message that is not the JSON of name, empty attributes and timestamp is refused', async () => {
    t = await namesApp()
    for (const message of [
      'alice.porthole.id',
      JSON.stringify({ name: 'alice.porthole.id', attributes: { avatar: 'x' }, timestamp: now() }),
      JSON.stringify({ name: 'alice.porthole.id', attributes: {}, timestamp: String(now()) }),
      JSON.stringify({ name: 'alice.porthole.id', timestamp: now() }),
    ]) {
      const signature = await alice.signMessage({ message })
      const response = await t.post('/v1/profile/account', {
        coin_type: COIN_TYPE,
        address: alice.address,
        message,
        signature,
      })
      expect(response.status, message).toBe(400)
      expect(reason((await response.json()) as Record<string, unknown>), message).toMatch(
        /^The message must be the JSON/,
      )
    }
  })

  test("a coin type that is not an EVM chain's is refused with 'Invalid chainId'", async () => {
    t = await namesApp()
    const solana = await register('solana-fan.porthole.id', alice, { coinType: 501 })
    expect(solana.response.status).toBe(400)
    expect(reason(solana.body)).toBe('Invalid chainId')
    // Mainnet's SLIP-44 coin type 60 is an EVM chain's.
    expect(
      (await register('mainnet-fan.porthole.id', alice, { coinType: 60 })).response.status,
    ).toBe(200)
  })

  test('PORTHOLE_NAME_SUFFIX sets the suffix names must carry', async () => {
    vi.stubEnv('PORTHOLE_NAME_SUFFIX', 'Names.Example.com')
    t = await namesApp()
    const other = await register('erin.porthole.id', alice)
    expect(reason(other.body)).toBe('Name must end with .names.example.com')
    expect((await register('erin.names.example.com', alice)).response.status).toBe(200)
    const account = NameAccount.parse(await (await t.get('/v1/profile/account/erin')).json())
    expect(account.name).toBe('erin.names.example.com')
    const suggestions = NameSuggestionsResponse.parse(
      await (await t.get('/v1/profile/suggestions/erin?zone=names.example.com')).json(),
    )
    expect(suggestions.suggestions[0]).toEqual({ name: 'erin.names.example.com', registered: true })
  })
})
