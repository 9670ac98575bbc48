/**
 * Name squatting (issue 25 audit): a fresh key registered any free name, as many as the rate
 * limit let through, and Send resolves names to addresses. A name is for an embedded-wallet
 * account of the project (spec §6: "Name registration needs the auth connector and an
 * address"), a few per user.
 */
import { DEMO_PROJECT_ID, evmCoinType, nameMessage } from '@porthole/shared'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import { createTestDatabase, DRIVERS, type TestDatabase } from '../../test/databases.js'
import { createTestApp, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import { ensureEmailUser } from '../auth/users.js'
import type { Db } from '../db/Db.js'
import { openDatabase } from '../db/openDatabase.js'
import { type StartApiReturnType, startApi } from '../server.js'

const COIN_TYPE = evmCoinType(31337)
const seconds = () => Math.floor(Date.now() / 1000)

/** The registration body of `name` signed by `signer`. */
async function registration(name: string, signer: PrivateKeyAccount, coinType = COIN_TYPE) {
  const message = nameMessage({ name, timestamp: seconds() })
  return {
    coin_type: coinType,
    address: signer.address,
    message,
    signature: await signer.signMessage({ message }),
  }
}

describe('a stranger over HTTP', () => {
  let api: StartApiReturnType | undefined
  let target: TestDatabase | undefined
  let db: Db | undefined
  afterEach(async () => {
    await api?.close()
    await db?.close()
    await target?.cleanup()
    api = target = db = undefined
  })

  test('a fresh key registers no name: 100 attempts, 100 refusals, nothing stored', async () => {
    target = await createTestDatabase('sqlite')
    api = await startApi({ port: 0, databaseUrl: target.url })
    db = await openDatabase({ url: target.url })
    const squatter = privateKeyToAccount(generatePrivateKey())
    const run = Date.now().toString(36)
    const statuses: number[] = []
    const started = performance.now()
    for (let i = 0; i < 100; i++) {
      const response = await fetch(`${api.url}/v1/profile/account?projectId=${DEMO_PROJECT_ID}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://squatter.example' },
        // Mainnet's coin type: an EOA's signature is checked offline (no devnet in this test).
        body: JSON.stringify(
          await registration(`brand${i}-${run}.porthole.id`, squatter, evmCoinType(1)),
        ),
      })
      statuses.push(response.status)
    }
    const [row] = await db.query<{ n: number | bigint }>('SELECT COUNT(*) AS n FROM profile_names')
    console.log(
      `a fresh key, 100 names: ${statuses.filter((s) => s === 200).length} registered, ${Number(row?.n)} stored in ${((performance.now() - started) / 1000).toFixed(1)} s; answers ${[...new Set(statuses)].join(', ')}`,
    )
    expect(Number(row?.n)).toBe(0)
    expect(statuses.every((status) => status === 403)).toBe(true)
  })
})

describe.each(DRIVERS)('names per account on %s', (driver) => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  /** A user of the project whose wallet address is `account`'s. */
  const projectUser = async (db: Db, account: PrivateKeyAccount) => {
    const { user } = await ensureEmailUser(db, PROJECT_ID, `${account.address}@example.com`)
    await db.execute('UPDATE auth_users SET address = ? WHERE id = ?', [
      account.address.toLowerCase(),
      user.id,
    ])
  }

  test('a user of the project registers 3 names, the 4th is refused with the reason; 10 at once still give 3', async () => {
    t = await createTestApp({}, { driver, catalogue: false })
    const user = privateKeyToAccount(generatePrivateKey())
    await projectUser(t.db, user)
    for (const name of ['first', 'second', 'third'])
      expect(
        (await t.post('/v1/profile/account', await registration(`${name}-name.porthole.id`, user)))
          .status,
      ).toBe(200)
    const fourth = await t.post(
      '/v1/profile/account',
      await registration('fourth-name.porthole.id', user),
    )
    expect(fourth.status).toBe(403)
    expect(await fourth.json()).toMatchObject({
      code: 'NAME_LIMIT_REACHED',
      reasons: [{ name: 'tooManyNames', description: 'An account may have at most 3 names' }],
    })

    // Another user, ten registrations at once: exactly three land.
    const racer = privateKeyToAccount(generatePrivateKey())
    await projectUser(t.db, racer)
    const bodies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => registration(`racer-${i}.porthole.id`, racer)),
    )
    const statuses = await Promise.all(
      bodies.map(async (body) => (await t?.post('/v1/profile/account', body))?.status),
    )
    expect(statuses.filter((status) => status === 200)).toHaveLength(3)
    expect(statuses.filter((status) => status === 403)).toHaveLength(7)
    const names = (await (await t.get(`/v1/profile/reverse/${racer.address}`)).json()) as unknown[]
    expect(names).toHaveLength(3)
  })

  test("a user of another project is a stranger here; a taken name does not use up the user's quota", async () => {
    t = await createTestApp({}, { driver, catalogue: false })
    const elsewhere = privateKeyToAccount(generatePrivateKey())
    await t.db.execute("INSERT INTO projects (id, name, created_at) VALUES ('other', 'Other', 0)")
    const { user } = await ensureEmailUser(t.db, 'other', 'elsewhere@example.com')
    await t.db.execute('UPDATE auth_users SET address = ? WHERE id = ?', [
      elsewhere.address.toLowerCase(),
      user.id,
    ])
    const refused = await t.post(
      '/v1/profile/account',
      await registration('elsewhere.porthole.id', elsewhere),
    )
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ code: 'NAME_NOT_ALLOWED' })

    const owner = privateKeyToAccount(generatePrivateKey())
    const late = privateKeyToAccount(generatePrivateKey())
    await projectUser(t.db, owner)
    await projectUser(t.db, late)
    expect(
      (await t.post('/v1/profile/account', await registration('popular.porthole.id', owner)))
        .status,
    ).toBe(200)
    for (let i = 0; i < 3; i++)
      expect(
        (await t.post('/v1/profile/account', await registration('popular.porthole.id', late)))
          .status,
      ).toBe(409)
    for (const name of ['late-one', 'late-two', 'late-three'])
      expect(
        (await t.post('/v1/profile/account', await registration(`${name}.porthole.id`, late)))
          .status,
      ).toBe(200)
  })
})
