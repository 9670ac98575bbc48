import { describe, expect, test } from 'vitest'
import { walletConnectLink } from './deepLinks.js'

const URI = 'wc:7f6e@2?relay-protocol=irn&symKey=58'
const ENC = encodeURIComponent(URI)

describe('walletConnectLink', () => {
  test.each([
    [{ mobileLink: 'metamask://' }, false, `metamask://wc?uri=${ENC}`, '_self'],
    [{ mobileLink: 'metamask:' }, false, `metamask://wc?uri=${ENC}`, '_self'],
    [{ mobileLink: 'trust://open/' }, false, `trust://open/wc?uri=${ENC}`, '_self'],
    [
      { mobileLink: 'metamask://', universalLink: 'https://metamask.app.link/' },
      true,
      `https://metamask.app.link/wc?uri=${ENC}`,
      '_blank',
    ],
    [
      { universalLink: 'https://link.trustwallet.com' },
      false,
      `https://link.trustwallet.com/wc?uri=${ENC}`,
      '_blank',
    ],
  ])('%j (universal preferred: %s) → %s', (links, preferUniversal, url, target) => {
    expect(walletConnectLink(URI, links, preferUniversal)).toEqual({ url, target })
  })

  test('no links, unsafe schemes and plain-http universal links give nothing', () => {
    expect(walletConnectLink(URI, {})).toBeNull()
    expect(walletConnectLink(URI, { mobileLink: 'javascript:alert(1)' })).toBeNull()
    expect(walletConnectLink(URI, { mobileLink: 'not a url' })).toBeNull()
    expect(walletConnectLink(URI, { universalLink: 'http://insecure.example' })).toBeNull()
  })
})
