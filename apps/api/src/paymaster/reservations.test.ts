import type { Address } from 'viem'
import { parseEther, parseGwei } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DRIVERS, openTestDatabase } from '../../test/databases.js'
import type { Db } from '../db/Db.js'
import { createProject } from '../projects/createProject.js'
import {
  canReserve,
  findReservation,
  reclaimExpiredReservations,
  reserveSponsorship,
} from './reservations.js'
import {
  projectChargedToday,
  projectSponsoredToday,
  type SponsorshipRules,
  sponsoredToday,
} from './sponsorship.js'

const CHAIN = 'eip155:31337'
const senderOf = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const rules: SponsorshipRules = {
  enabled: true,
  dailyCap: 3,
  projectDailyCap: 10,
  projectDailyBudget: parseGwei('1000'),
}

describe.each(DRIVERS)('sponsorship reservations on %s', (driver) => {
  let db: Db
  let project = 0
  /** A fresh project per test: counts start from zero. */
  const freshProject = async () => {
    const id = `reservations-${++project}`
    await createProject(db, { id, origins: [`https://${id}.test`] })
    return id
  }
  beforeAll(async () => {
    db = await openTestDatabase(driver)
  })
  afterAll(() => db?.close())
  const now = Date.UTC(2026, 8, 1, 12)
  const seconds = Math.floor(now / 1000)

  const reserve = (
    projectId: string,
    over: Partial<Parameters<typeof reserveSponsorship>[1]> = {},
  ) =>
    reserveSponsorship(db, {
      projectId,
      chain: CHAIN,
      sender: senderOf(1),
      nonce: 0n,
      kind: 'operation',
      charge: parseGwei('100'),
      validUntil: seconds + 600,
      rules,
      revocationsPerDay: 2,
      now,
      ...over,
    })

  test('a slot counts once however often it is asked; a higher charge adds the difference', async () => {
    const projectId = await freshProject()
    expect(await reserve(projectId)).toEqual({ reserved: true, reused: false })
    for (let i = 0; i < 5; i++)
      expect(await reserve(projectId, { charge: parseGwei('50') })).toEqual({
        reserved: true,
        reused: true,
      })
    expect(await sponsoredToday(db, { projectId, sender: senderOf(1), now })).toBe(1)
    expect(await projectChargedToday(db, { projectId, now })).toBe(parseGwei('100'))
    expect(
      await reserve(projectId, { charge: parseGwei('300'), validUntil: seconds + 900 }),
    ).toEqual({
      reserved: true,
      reused: true,
    })
    expect(await projectChargedToday(db, { projectId, now })).toBe(parseGwei('300'))
    expect(
      await findReservation(db, { projectId, chain: CHAIN, sender: senderOf(1), nonce: 0n }),
    ).toMatchObject({
      kind: 'operation',
      chargeGwei: 300,
      validUntil: seconds + 900,
      status: 'held',
    })
    // More than the budget leaves: refused, and the reservation keeps its charge.
    expect(await reserve(projectId, { charge: parseGwei('1001') })).toEqual({
      reserved: false,
      cap: 'budget',
    })
    expect(await projectChargedToday(db, { projectId, now })).toBe(parseGwei('300'))
  })

  test('30 concurrent requests for one slot: one counted, all reserved', async () => {
    const projectId = await freshProject()
    const results = await Promise.all(Array.from({ length: 30 }, () => reserve(projectId)))
    expect(results.every((result) => result.reserved)).toBe(true)
    expect(results.filter((result) => result.reserved && !result.reused)).toHaveLength(1)
    expect(await sponsoredToday(db, { projectId, sender: senderOf(1), now })).toBe(1)
    expect(await projectSponsoredToday(db, { projectId, now })).toBe(1)
  })

  test("a sender's cap counts its slots; another nonce is another slot", async () => {
    const projectId = await freshProject()
    for (const nonce of [0n, 1n, 2n])
      expect(await reserve(projectId, { nonce })).toMatchObject({ reserved: true, reused: false })
    expect(await reserve(projectId, { nonce: 3n })).toEqual({ reserved: false, cap: 'sender' })
    expect(await reserve(projectId, { nonce: 2n })).toEqual({ reserved: true, reused: true })
    expect(
      await canReserve(db, {
        projectId,
        chain: CHAIN,
        sender: senderOf(1),
        nonce: 3n,
        kind: 'operation',
        rules,
        revocationsPerDay: 2,
        now,
      }),
    ).toBe('sender')
    expect(
      await canReserve(db, {
        projectId,
        chain: CHAIN,
        sender: senderOf(1),
        nonce: 2n,
        kind: 'operation',
        rules,
        revocationsPerDay: 2,
        now,
      }),
    ).toBeNull()
  })

  test('revocations pass the caps, are counted apart, and an operation asked on one is counted', async () => {
    const projectId = await freshProject()
    for (const nonce of [0n, 1n, 2n]) await reserve(projectId, { nonce })
    const revoke = (nonce: bigint) => reserve(projectId, { nonce, kind: 'revocation' })
    expect(await revoke(3n)).toEqual({ reserved: true, reused: false })
    expect(await revoke(4n)).toEqual({ reserved: true, reused: false })
    expect(await revoke(5n)).toEqual({ reserved: false, cap: 'revocations' })
    expect(await sponsoredToday(db, { projectId, sender: senderOf(1), now })).toBe(3)
    // The same slot asked as an operation: over the sender's cap, refused; the revocation stays.
    expect(await reserve(projectId, { nonce: 3n })).toEqual({ reserved: false, cap: 'sender' })
    expect(
      await findReservation(db, { projectId, chain: CHAIN, sender: senderOf(1), nonce: 3n }),
    ).toMatchObject({ kind: 'revocation', chargeGwei: 0 })
    // Another sender's operation on its revocation slot is counted as an operation.
    const other = senderOf(2)
    expect(await reserve(projectId, { sender: other, kind: 'revocation' })).toMatchObject({
      reserved: true,
    })
    expect(await reserve(projectId, { sender: other })).toEqual({ reserved: true, reused: true })
    expect(await sponsoredToday(db, { projectId, sender: other, now })).toBe(1)
    expect(
      await findReservation(db, { projectId, chain: CHAIN, sender: other, nonce: 0n }),
    ).toMatchObject({ kind: 'operation', chargeGwei: 100 })
  })

  test('expired reservations: an unused nonce gives the slot back, a used one keeps it', async () => {
    const projectId = await freshProject()
    const full = { ...rules, dailyCap: 2 }
    await reserve(projectId, { nonce: 0n, rules: full, validUntil: seconds + 60 })
    await reserve(projectId, { nonce: 1n, rules: full, validUntil: seconds + 60 })
    await reserve(projectId, { sender: senderOf(7), validUntil: seconds + 6000 })
    expect(await reserve(projectId, { nonce: 2n, rules: full })).toEqual({
      reserved: false,
      cap: 'sender',
    })
    const asked: { sender: Address; key: bigint }[] = []
    const later = now + 120_000
    // senderOf(1)'s nonce 0 was used on chain (next is 1): 1 is unused.
    const released = await reclaimExpiredReservations(db, {
      projectId,
      now: later,
      async nonces(chain, slots) {
        expect(chain).toBe(CHAIN)
        asked.push(...slots)
        return slots.map(() => 1n)
      },
    })
    expect(released).toBe(1)
    expect(asked).toEqual([
      { sender: senderOf(1), key: 0n },
      { sender: senderOf(1), key: 0n },
    ])
    const slot = (nonce: bigint) =>
      findReservation(db, { projectId, chain: CHAIN, sender: senderOf(1), nonce })
    expect(await slot(0n)).toMatchObject({ status: 'used' })
    expect(await slot(1n)).toBeUndefined()
    expect(await sponsoredToday(db, { projectId, sender: senderOf(1), now })).toBe(1)
    expect(await projectChargedToday(db, { projectId, now })).toBe(parseGwei('200'))
    // Room again for the account's real next operation.
    expect(
      await reserve(projectId, { nonce: 1n, rules: full, now: later, validUntil: seconds + 720 }),
    ).toEqual({
      reserved: true,
      reused: false,
    })
    // Nothing expired is left to look at.
    expect(
      await reclaimExpiredReservations(db, {
        projectId,
        now: later,
        nonces: async () => {
          throw new Error('no reads expected')
        },
      }),
    ).toBe(0)
  })

  test('a reservation asked again before it is reclaimed is kept', async () => {
    const projectId = await freshProject()
    await reserve(projectId, { validUntil: seconds + 60 })
    const later = now + 120_000
    let extended = false
    const released = await reclaimExpiredReservations(db, {
      projectId,
      now: later,
      async nonces(_chain, slots) {
        // Between the read and the give-back, the owner asks again for the slot.
        if (!extended) {
          extended = true
          await reserve(projectId, { now: later, validUntil: Math.floor(later / 1000) + 600 })
        }
        return slots.map(() => 0n)
      },
    })
    expect(released).toBe(0)
    expect(await sponsoredToday(db, { projectId, sender: senderOf(1), now })).toBe(1)
    expect(
      await findReservation(db, { projectId, chain: CHAIN, sender: senderOf(1), nonce: 0n }),
    ).toMatchObject({ status: 'held', validUntil: Math.floor(later / 1000) + 600 })
  })

  test('a budget of 1 ETH in gwei holds charges of 0.01 ETH each: 100 of them', async () => {
    const projectId = await freshProject()
    const wide = {
      ...rules,
      dailyCap: 1000,
      projectDailyCap: 1000,
      projectDailyBudget: parseEther('1'),
    }
    for (let i = 0; i < 100; i++)
      expect(
        await reserve(projectId, {
          sender: senderOf(1000 + i),
          charge: parseEther('0.01'),
          rules: wide,
        }),
      ).toMatchObject({ reserved: true })
    expect(await reserve(projectId, { sender: senderOf(5000), charge: 1n, rules: wide })).toEqual({
      reserved: false,
      cap: 'budget',
    })
    expect(await projectChargedToday(db, { projectId, now })).toBe(parseEther('1'))
  })
})
