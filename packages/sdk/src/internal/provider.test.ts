import { expect, test, vi } from 'vitest'
import { createEmitter } from './emitter.js'
import { createProvider, eventPrefix } from './provider.js'

test('each namespace’s provider hears its own events; the EVM one (and porthole.on) the unprefixed ones', () => {
  const events = createEmitter()
  const evm = createProvider(events, eventPrefix('eip155'), vi.fn())
  const solana = createProvider(events, eventPrefix('solana'), vi.fn())
  const bitcoin = createProvider(events, eventPrefix('bip122'), vi.fn())
  const heard: string[] = []
  evm.on('accountsChanged', (a) => heard.push(`evm ${a}`))
  solana.on('accountsChanged', (a) => heard.push(`solana ${a}`))
  bitcoin.on('accountsChanged', (a) => heard.push(`bitcoin ${a}`))
  events.on('accountsChanged', (a) => heard.push(`instance ${a}`))
  // As the instance emits a modal's providerEvent: no namespace or eip155 → EVM.
  for (const [namespace, data] of [
    [undefined, '0xa'],
    ['eip155', '0xb'],
    ['solana', 'Sol'],
    ['bip122', 'bcrt1q'],
  ] as const)
    events.emit(`${eventPrefix(namespace)}accountsChanged`, data)
  expect(heard).toEqual([
    'evm 0xa',
    'instance 0xa',
    'evm 0xb',
    'instance 0xb',
    'solana Sol',
    'bitcoin bcrt1q',
  ])
})

test('removeListener stops a provider’s listener; on/removeListener chain', () => {
  const events = createEmitter()
  const solana = createProvider(events, eventPrefix('solana'), vi.fn())
  const listener = vi.fn()
  expect(solana.on('disconnect', listener)).toBe(solana)
  expect(solana.removeListener('disconnect', listener)).toBe(solana)
  events.emit('solana:disconnect', new Error('x'))
  expect(listener).not.toHaveBeenCalled()
})

test('request is the routing function it was given', async () => {
  const route = vi.fn(async () => [{ pubkey: 'Sol' }])
  const solana = createProvider(createEmitter(), 'solana:', route)
  expect(await solana.request({ method: 'solana_getAccounts' })).toEqual([{ pubkey: 'Sol' }])
  expect(route).toHaveBeenCalledWith({ method: 'solana_getAccounts' })
})
