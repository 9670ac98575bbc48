import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import { DEPLOYER, DEV_ACCOUNTS, DEV_MNEMONIC } from './accounts.ts'

test('every private key belongs to its address', () => {
  for (const { address, privateKey } of DEV_ACCOUNTS)
    expect(privateKeyToAccount(privateKey).address).toBe(address)
})

test('the accounts are the first 10 of the dev mnemonic, in order', () => {
  expect(DEV_ACCOUNTS).toHaveLength(10)
  DEV_ACCOUNTS.forEach(({ address }, addressIndex) => {
    expect(mnemonicToAccount(DEV_MNEMONIC, { addressIndex }).address).toBe(address)
  })
  expect(DEPLOYER).toBe(DEV_ACCOUNTS[0])
})
