import { expect, test } from 'vitest'
import { createNftMetadataFetcher, decodeDataUri } from './nftMetadata.js'

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' }, ...init })

test('data: URIs (base64 or not) are read without a request', async () => {
  const fetcher = createNftMetadataFetcher({
    allowedOrigins: [],
    fetch: async () => {
      throw new Error('no request expected')
    },
  })
  const doc = { name: 'On chain', image: 'data:image/svg+xml;base64,PHN2Zy8+' }
  expect(
    await fetcher(
      `data:application/json;base64,${Buffer.from(JSON.stringify(doc)).toString('base64')}`,
    ),
  ).toEqual(doc)
  expect(await fetcher(`data:application/json,${encodeURIComponent(JSON.stringify(doc))}`)).toEqual(
    doc,
  )
  expect(decodeDataUri('data:text/plain,a%20b')).toBe('a b')
})

test('http(s) only from allowed origins; ipfs through the gateway; unsafe images dropped', async () => {
  const asked: string[] = []
  const fetcher = createNftMetadataFetcher({
    allowedOrigins: ['https://meta.example'],
    ipfsGateway: 'https://gw.example/',
    fetch: async (input) => {
      asked.push(String(input))
      return json({
        name: 'Token',
        image: String(input).includes('bad') ? 'javascript:alert(1)' : 'ipfs://Qm/1.png',
      })
    },
  })
  expect(await fetcher('https://meta.example/1')).toEqual({
    name: 'Token',
    image: 'https://gw.example/ipfs/Qm/1.png',
  })
  expect(await fetcher('ipfs://QmMeta/1')).toEqual({
    name: 'Token',
    image: 'https://gw.example/ipfs/Qm/1.png',
  })
  expect(await fetcher('https://meta.example/bad')).toEqual({ name: 'Token' })
  expect(await fetcher('http://169.254.169.254/latest/meta-data')).toBeUndefined()
  expect(await fetcher('file:///etc/passwd')).toBeUndefined()
  expect(asked).toEqual([
    'https://meta.example/1',
    'https://gw.example/ipfs/QmMeta/1',
    'https://meta.example/bad',
  ])
})

test('failures, oversize documents and non-JSON are undefined; local URIs skip the network', async () => {
  const big = 'x'.repeat(100)
  const fetcher = createNftMetadataFetcher({
    allowedOrigins: '*',
    maxBytes: 50,
    local: (uri) => (uri === 'https://api.test/nft/v1/a/1' ? { name: 'Local' } : undefined),
    fetch: async (input) => {
      const url = String(input)
      if (url.endsWith('/404')) return new Response('nope', { status: 404 })
      if (url.endsWith('/big')) return json({ name: big })
      if (url.endsWith('/text')) return new Response('not json')
      throw new Error('offline')
    },
  })
  expect(await fetcher('https://api.test/nft/v1/a/1')).toEqual({ name: 'Local' })
  for (const path of ['/404', '/big', '/text', '/down'])
    expect(await fetcher(`https://x.example${path}`)).toBeUndefined()
})
