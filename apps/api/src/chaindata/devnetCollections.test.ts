import { expect, test } from 'vitest'
import {
  collectionMetadata,
  DEVNET_COLLECTIONS,
  localCollectionMetadata,
} from './devnetCollections.js'

test('metadata of a seeded token names it and points at its image on the API', () => {
  expect(collectionMetadata('http://api.test', 'porthole-pals', '12')).toEqual({
    name: 'Porthole Pal #12',
    description: expect.any(String),
    image: 'http://api.test/nft/v1/porthole-pals/12/image.svg',
  })
  expect(collectionMetadata('http://api.test', 'reward-vouchers', '1')?.name).toBe(
    'Reward Voucher #1',
  )
})

test.each([
  ['unknown', '1'],
  ['porthole-pals', '0'],
  ['porthole-pals', '-1'],
  ['porthole-pals', '1.5'],
  ['porthole-pals', '01'],
])('no metadata for %s #%s', (slug, id) => {
  expect(collectionMetadata('http://api.test', slug, id)).toBeUndefined()
})

test('local resolution only for this API’s own URIs', () => {
  const local = localCollectionMetadata('http://api.test')
  expect(local('http://api.test/nft/v1/porthole-pals/3')?.name).toBe('Porthole Pal #3')
  expect(local('http://api.test/nft/v1/porthole-pals/3/x')).toBeUndefined()
  expect(local('http://other.test/nft/v1/porthole-pals/3')).toBeUndefined()
})

test('art is a deterministic SVG per token', () => {
  const pals = DEVNET_COLLECTIONS.get('porthole-pals')!
  expect(pals.art(5n)).toBe(pals.art(5n))
  expect(pals.art(5n)).not.toBe(pals.art(6n))
  expect(pals.art(5n)).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)
})
