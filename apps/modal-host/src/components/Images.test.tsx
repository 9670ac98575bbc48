import { readFileSync } from 'node:fs'
import { getKnownNetwork } from '@porthole/shared'
import { renderToStaticMarkup } from 'react-dom/server'
import { beforeAll, describe, expect, test } from 'vitest'
import { configureApi } from '../api/client.js'
import { fromCustomWallet } from '../rules/customWallets.js'
import { DEFAULT_SOCIALS } from '../rules/socials.js'
import { fromCatalogue, fromInjected } from '../rules/walletLists.js'
import { SocialIcon } from '../views/Social.js'
import { NetworkImage, Picture, reportImageError } from './Images.js'

const API = 'http://api.test'
const html = (element: React.ReactElement) => renderToStaticMarkup(element)

beforeAll(() => configureApi(API, 'p'))

describe('Picture', () => {
  test('shows the image, decorative, lazy and decoded off the main thread', () => {
    const src = `${API}/getWalletImage/metamask?projectId=p`
    const out = html(<Picture src={src} name="MetaMask" size={40} />)
    expect(out).toMatch(/^<img [^>]*class="ph-image"/)
    expect(out).toContain(`src="${src.replace('&', '&amp;')}"`)
    expect(out).toContain('alt=""')
    expect(out).toContain('loading="lazy"')
    expect(out).toContain('decoding="async"')
    expect(out).not.toContain('ph-monogram')
  })

  test('falls back to the letter tile once its image failed to load, for every picture of it', () => {
    const src = `${API}/getWalletImage/broken?projectId=p`
    expect(html(<Picture src={src} name="Trust Wallet" />)).toMatch(/^<img /)
    reportImageError(src)
    for (const size of [40, 72]) {
      const out = html(<Picture src={src} name="Trust Wallet" size={size} />)
      expect(out).not.toContain('<img')
      expect(out).toMatch(/^<span class="ph-monogram" aria-hidden="true"[^>]*>TW<\/span>$/)
      expect(out).toContain(`width:${size}px`)
    }
  })

  test('shows the letter tile when there is no image', () => {
    const out = html(<Picture src="" name="Acme" />)
    expect(out).toMatch(/^<span class="ph-monogram" aria-hidden="true"[^>]*>A<\/span>$/)
  })

  test('social buttons draw the bundled logo, the same file the API serves (no request, no tile first: the first frame after the click is complete)', () => {
    const served = readFileSync(
      new URL('../../../api/assets/socials/google.svg', import.meta.url),
      'utf8',
    )
    for (const provider of DEFAULT_SOCIALS) {
      const out = html(<SocialIcon provider={provider} />)
      const src = /src="([^"]*)"/.exec(out)?.[1] ?? ''
      expect(src.startsWith('data:image/svg+xml,%3Csvg'), provider).toBe(true)
      // Loaded at once: a lazy image is decoded after the card's first frame.
      expect(out).toContain('loading="eager"')
    }
    const google = /src="([^"]*)"/.exec(html(<SocialIcon provider="google" />))?.[1] ?? ''
    expect(
      decodeURIComponent(google.replaceAll('&amp;', '&').slice('data:image/svg+xml,'.length)),
    ).toBe(served)
  })
})

describe('who picks the image', () => {
  test("a network's own imageUrl wins over the API's logo, which is used without one", () => {
    const base = getKnownNetwork('eip155:8453')!
    expect(html(<NetworkImage network={base} />)).toContain(
      `src="${API}/public/getAssetImage/eip155%3A8453?projectId=p`,
    )
    const own = { ...base, assets: { ...base.assets, imageUrl: 'https://dapp.test/base.png' } }
    expect(html(<NetworkImage network={own} />)).toContain('src="https://dapp.test/base.png"')
  })

  test("an installed wallet's own icon wins over the catalogue's logo, which fills in without one", () => {
    const catalogue = [
      {
        id: 'mm',
        name: 'MetaMask',
        image_url: `${API}/getWalletImage/metamask`,
        rdns: 'io.metamask',
        homepage: null,
        order: 10,
      },
    ]
    const info = {
      uuid: 'u',
      name: 'MetaMask',
      icon: 'data:image/svg+xml,<svg/>',
      rdns: 'io.metamask',
    }
    expect(fromInjected(info, catalogue).image).toBe(info.icon)
    expect(fromInjected({ ...info, icon: '' }, catalogue).image).toBe(
      `${API}/getWalletImage/metamask`,
    )
    expect(fromCatalogue(catalogue[0]!, [info]).image).toBe(`${API}/getWalletImage/metamask`)
  })

  test("a custom wallet shows the dapp's image_url, else its tile", () => {
    expect(
      fromCustomWallet({ id: 'acme', name: 'Acme', image_url: 'https://acme.test/a.svg' }).image,
    ).toBe('https://acme.test/a.svg')
    expect(
      html(<Picture src={fromCustomWallet({ id: 'acme', name: 'Acme' }).image} name="Acme" />),
    ).toContain('ph-monogram')
  })
})
