import { expect, test } from 'vitest'
import {
  clientIdOf,
  clientSecretOf,
  isSocialProvider,
  PROVIDER_NAMES,
  SOCIAL_CLIENTS,
  SOCIAL_PROVIDERS,
} from './providers.ts'

test('lists the six social providers in the modal order', () => {
  expect(SOCIAL_PROVIDERS).toEqual(['google', 'github', 'apple', 'facebook', 'x', 'discord'])
  expect(Object.keys(PROVIDER_NAMES)).toEqual([...SOCIAL_PROVIDERS])
})

test('names each client porthole-<provider> with secret porthole-<provider>-secret', () => {
  expect(clientIdOf('x')).toBe('porthole-x')
  expect(clientSecretOf('apple')).toBe('porthole-apple-secret')
  for (const provider of SOCIAL_PROVIDERS)
    expect(SOCIAL_CLIENTS[provider]).toEqual({
      clientId: `porthole-${provider}`,
      clientSecret: `porthole-${provider}-secret`,
    })
  expect(Object.isFrozen(SOCIAL_CLIENTS.google)).toBe(true)
})

test('recognises provider names and nothing else', () => {
  expect(isSocialProvider('discord')).toBe(true)
  expect(isSocialProvider('Discord')).toBe(false)
  expect(isSocialProvider('myspace')).toBe(false)
})
