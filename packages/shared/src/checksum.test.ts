import { getAddress, bytesToHex as hex, keccak256 as viemKeccak } from 'viem'
import { expect, test } from 'vitest'
import { checksumAddress, keccak256 } from './checksum.js'

test("keccak256 equals viem's for every length around the rate's block edges and random data", () => {
  for (const length of [0, 1, 31, 32, 40, 135, 136, 137, 271, 272, 273, 1000]) {
    for (let run = 0; run < 5; run++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length))
      expect(hex(keccak256(bytes)), `length ${length}`).toBe(viemKeccak(bytes))
    }
  }
  expect(hex(keccak256(new Uint8Array()))).toBe(
    '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
  )
})

test("checksumAddress equals viem's getAddress on 2,000 random addresses, whatever the input's case", () => {
  for (let run = 0; run < 2000; run++) {
    const address = hex(crypto.getRandomValues(new Uint8Array(20)))
    const expected = getAddress(address)
    expect(checksumAddress(address)).toBe(expected)
    expect(checksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(expected)
  }
  // EIP-55's own examples.
  for (const address of [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ])
    expect(checksumAddress(address.toLowerCase())).toBe(address)
})

test('anything but 0x and 40 hex digits is refused', () => {
  for (const bad of [
    '',
    '0x',
    '0x123',
    `0x${'g'.repeat(40)}`,
    `${'a'.repeat(42)}`,
    `0x${'a'.repeat(41)}`,
  ])
    expect(() => checksumAddress(bad)).toThrow(`Address "${bad}" is invalid.`)
})
