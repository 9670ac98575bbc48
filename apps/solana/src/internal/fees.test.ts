import { describe, expect, test } from 'vitest'
import { messageFee } from './fees.js'

const SYSTEM = '11111111111111111111111111111111'
const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111'
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const transfer = { programId: SYSTEM, data: new Uint8Array(12) }
const price = (microLamports: bigint) => {
  const data = new Uint8Array(9)
  data[0] = 3
  new DataView(data.buffer).setBigUint64(1, microLamports, true)
  return { programId: COMPUTE_BUDGET, data }
}
const limit = (units: number) => {
  const data = new Uint8Array(5)
  data[0] = 2
  new DataView(data.buffer).setUint32(1, units, true)
  return { programId: COMPUTE_BUDGET, data }
}

describe('messageFee', () => {
  test('charges 5,000 lamports per signature', () => {
    expect(messageFee({ numRequiredSignatures: 2, instructions: [transfer] })).toBe(10_000n)
  })

  test('adds the priority fee over the set compute-unit limit, rounded up', () => {
    expect(
      messageFee({
        numRequiredSignatures: 1,
        instructions: [price(1_000_000n), limit(300_000), transfer],
      }),
    ).toBe(305_000n)
    expect(messageFee({ numRequiredSignatures: 1, instructions: [price(3n), transfer] })).toBe(
      5001n,
    )
  })

  test('without a limit, counts 3,000 units per builtin and 200,000 per other instruction', () => {
    expect(
      messageFee({
        numRequiredSignatures: 1,
        instructions: [price(1_000_000n), { programId: TOKEN, data: new Uint8Array(10) }, transfer],
      }),
    ).toBe(5000n + 3000n + 200_000n + 3000n)
  })
})
