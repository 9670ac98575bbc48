import { describe, expect, test } from 'vitest'
import {
  coinTypeChainId,
  DEFAULT_EVM_COIN_TYPE,
  evmCoinType,
  isValidName,
  NameMessage,
  nameAddress,
  nameErrorReason,
  nameLabel,
  nameMessage,
  nameProblem,
} from './names.js'

describe('the name rule (spec §5: letters, digits and hyphens, at least 4 characters)', () => {
  test('accepts letters, digits and hyphens from 4 characters', () => {
    for (const label of ['alice', 'Bob1', 'a-b-c', '1234', 'x'.repeat(63)])
      expect(isValidName(label), label).toBe(true)
  })
  test('refuses shorter names, other characters and labels past 63 characters', () => {
    expect(nameProblem('abc')).toBe('tooShort')
    expect(nameProblem('')).toBe('tooShort')
    expect(nameProblem('al_ice')).toBe('invalidCharacters')
    expect(nameProblem('alice.bob')).toBe('invalidCharacters')
    expect(nameProblem('ali ce')).toBe('invalidCharacters')
    expect(nameProblem('élise')).toBe('invalidCharacters')
    expect(nameProblem('x'.repeat(64))).toBe('tooLong')
  })
})

test('a name splits into its label under the suffix, case-insensitively', () => {
  expect(nameLabel('Alice.Porthole.id', '.porthole.id')).toBe('alice')
  expect(nameLabel('alice.eth', '.porthole.id')).toBeNull()
  expect(nameLabel('.porthole.id', '.porthole.id')).toBeNull()
})

test('ENSIP-11 coin types: (0x80000000 | chainId) >>> 0, and back', () => {
  expect(evmCoinType(31337)).toBe(2147514985)
  expect(evmCoinType(1)).toBe(2147483649)
  expect(coinTypeChainId(2147514985)).toBe(31337)
  expect(coinTypeChainId(60)).toBe(1)
  expect(coinTypeChainId(501)).toBeNull()
  expect(() => evmCoinType(2 ** 31)).toThrow('Invalid chainId')
  expect(() => evmCoinType(-1)).toThrow('Invalid chainId')
})

test('the registration message is the JSON of name, empty attributes and a timestamp', () => {
  const text = nameMessage({ name: 'alice.porthole.id', timestamp: 1_764_000_000 })
  expect(text).toBe('{"name":"alice.porthole.id","attributes":{},"timestamp":1764000000}')
  expect(NameMessage.parse(JSON.parse(text))).toEqual({
    name: 'alice.porthole.id',
    attributes: {},
    timestamp: 1_764_000_000,
  })
  expect(NameMessage.safeParse({ name: 'a', attributes: { x: '1' }, timestamp: 1 }).success).toBe(
    false,
  )
})

test("a name's address on a chain: its own coin type first, then the default EVM one", () => {
  const created = '2026-01-01T00:00:00.000Z'
  const account = {
    addresses: {
      [String(evmCoinType(31337))]: { address: '0xaaa', created },
      [String(DEFAULT_EVM_COIN_TYPE)]: { address: '0xbbb', created },
    },
  }
  expect(nameAddress(account, 31337)).toBe('0xaaa')
  expect(nameAddress(account, 31338)).toBe('0xbbb')
  expect(nameAddress({ addresses: {} }, 31337)).toBeNull()
  expect(nameAddress({ addresses: { '60': { address: '0xccc', created } } }, 1)).toBe('0xccc')
})

test("the first reason's description of an error body", () => {
  expect(
    nameErrorReason({
      code: 'NAME_TAKEN',
      message: 'Error registering name alice.porthole.id',
      reasons: [{ name: 'taken', description: 'Name is already taken' }],
    }),
  ).toBe('Name is already taken')
  expect(nameErrorReason({ code: 'X', message: 'y' })).toBeUndefined()
  expect(nameErrorReason('nope')).toBeUndefined()
})
