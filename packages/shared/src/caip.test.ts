import { describe, expect, test } from 'vitest'
import {
  evmChainIdToCoinType,
  parseCaipAddress,
  parseCaipNetworkId,
  toEip155NetworkId,
} from './caip.js'

describe('CAIP-2', () => {
  test.each([
    ['eip155:1', { namespace: 'eip155', reference: '1' }],
    [
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      { namespace: 'solana', reference: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' },
    ],
  ])('parses %s', (id, expected) => {
    expect(parseCaipNetworkId(id)).toEqual(expected)
  })

  test.each(['eip155', 'eip155:1:0xabc', ':1', 'eip155:', ''])(
    'rejects %j with the spec message',
    (id) => {
      expect(() => parseCaipNetworkId(id)).toThrow(`Invalid CAIP-2 network id: ${id}`)
    },
  )
})

describe('CAIP-10', () => {
  test('parses a known namespace', () => {
    expect(parseCaipAddress('eip155:1:0xabc')).toEqual({
      namespace: 'eip155',
      reference: '1',
      address: '0xabc',
    })
  })

  test.each(['eip155:1', 'foo:1:0xabc', 'eip155:1:0xabc:extra', 'eip155::0xabc'])(
    'rejects %j with the spec message',
    (value) => {
      expect(() => parseCaipAddress(value)).toThrow(`Invalid CAIP-10 address: ${value}`)
    },
  )
})

describe('chain ids are strings or numbers', () => {
  test.each([
    [1, 'eip155:1'],
    ['1', 'eip155:1'],
    ['0x2105', 'eip155:8453'],
    ['eip155:10', 'eip155:10'],
  ])('%j → %s', (input, expected) => {
    expect(toEip155NetworkId(input)).toBe(expected)
  })

  test.each([0, -1, 'abc', 1.5])('rejects %j', (input) => {
    expect(() => toEip155NetworkId(input)).toThrow()
  })
})

describe('EVM chain id to coin type', () => {
  test('sets the high bit', () => {
    expect(evmChainIdToCoinType(10)).toBe(2147483658)
  })
  test("ids at or above 2^31 give 'Invalid chainId'", () => {
    expect(() => evmChainIdToCoinType(2 ** 31)).toThrow('Invalid chainId')
  })
})
