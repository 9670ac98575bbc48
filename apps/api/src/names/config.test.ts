import { expect, test } from 'vitest'
import { InvalidConfigError } from '../config.js'
import { resolveNameSuffix } from './config.js'

test('the name suffix: .porthole.id by default, PORTHOLE_NAME_SUFFIX in one form, or refused', () => {
  expect(resolveNameSuffix({})).toBe('.porthole.id')
  expect(resolveNameSuffix({ PORTHOLE_NAME_SUFFIX: 'Names.Example.com' })).toBe(
    '.names.example.com',
  )
  expect(resolveNameSuffix({ PORTHOLE_NAME_SUFFIX: '.wallet.id' })).toBe('.wallet.id')
  for (const bad of ['not a domain', 'a..b', '-x.id', 'x_y.id', '..'])
    expect(() => resolveNameSuffix({ PORTHOLE_NAME_SUFFIX: bad }), bad).toThrow(InvalidConfigError)
})
