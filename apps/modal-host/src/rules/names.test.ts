import { expect, test } from 'vitest'
import { canRegisterName, evmChainIdOf } from './nameRegistration.js'
import { isNameLike, nameInputMessage } from './names.js'

test('the name field says what breaks the rule as it is typed, and nothing while empty', () => {
  expect(nameInputMessage('')).toBeNull()
  expect(nameInputMessage('bob')).toBe('nameTooShort')
  expect(nameInputMessage('bo b')).toBe('nameInvalidCharacters')
  expect(nameInputMessage('alice.porthole.id')).toBe('nameInvalidCharacters')
  expect(nameInputMessage('x'.repeat(64))).toBe('nameTooLong')
  expect(nameInputMessage('alice-01')).toBeNull()
})

test('only an embedded account with an address on an EVM network may register a name', () => {
  const authUser = { email: 'a@b.test' }
  const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
  expect(canRegisterName({ authUser, address, caipNetworkId: 'eip155:31337' })).toBe(true)
  expect(canRegisterName({ authUser: null, address, caipNetworkId: 'eip155:31337' })).toBe(false)
  expect(canRegisterName({ authUser, address: null, caipNetworkId: 'eip155:31337' })).toBe(false)
  expect(
    canRegisterName({
      authUser,
      address,
      caipNetworkId: 'solana:DQeEdFrFHNT1L46iyNhv8eQs1rHsUi8P',
    }),
  ).toBe(false)
})

test('a Send receiver made of name labels is looked up; anything else is not a name', () => {
  for (const name of ['alice', 'alice.porthole.id', 'Alice-01.porthole.id', 'vitalik.eth'])
    expect(isNameLike(name), name).toBe(true)
  for (const other of ['bob', 'hello world', 'alice..id', 'alice.', '', 'a@b.c'])
    expect(isNameLike(other), other).toBe(false)
})

test('the EVM chain id of a CAIP-2 network', () => {
  expect(evmChainIdOf('eip155:31337')).toBe(31337)
  expect(evmChainIdOf('solana:abc')).toBeNull()
  expect(evmChainIdOf(null)).toBeNull()
})
