import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'

vi.mock('./api.js', () => ({ inlineApprovalOrigins: vi.fn() }))

const { inlineApprovalOrigins } = await import('./api.js')
const { decideInlineApproval, inlineApprovalAllowed, readTrustedOrigins, TRUST_MAX_AGE_MS } =
  await import('./inlineApprovals.js')

const MODAL = 'https://modal.porthole.example'
const SHOP = 'https://shop.example'
const OUTER = 'https://prize.example'

describe('inlineApprovalAllowed', () => {
  const decide = (
    ancestorOrigins: readonly string[] | undefined,
    trustedOrigins: readonly string[] | undefined,
    ...dapp: [string | undefined] | []
  ) =>
    inlineApprovalAllowed({
      dappOrigin: dapp.length === 0 ? SHOP : dapp[0],
      ancestorOrigins,
      trustedOrigins,
    })

  test('a trusted dapp with nothing above it approves in the page', () => {
    expect(decide([MODAL, SHOP], [SHOP])).toBe(true)
  })

  test('an allowed but untrusted dapp goes to the popup', () => {
    expect(decide([MODAL, SHOP], [])).toBe(false)
    expect(decide([MODAL, SHOP], ['https://other.example'])).toBe(false)
  })

  test('a trusted dapp inside an untrusted page goes to the popup; with that page trusted too, in the page', () => {
    expect(decide([MODAL, SHOP, OUTER], [SHOP])).toBe(false)
    expect(decide([MODAL, SHOP, OUTER, SHOP], [SHOP])).toBe(false)
    expect(decide([MODAL, SHOP, OUTER], [SHOP, OUTER])).toBe(true)
  })

  test('a trusted page above an untrusted dapp does not make the dapp trusted', () => {
    expect(decide([MODAL, SHOP, OUTER], [OUTER])).toBe(false)
  })

  test('the page above the modal must be the dapp the modal verified', () => {
    expect(decide([MODAL, OUTER], [SHOP, OUTER])).toBe(false)
    expect(decide([MODAL, SHOP], [SHOP], OUTER)).toBe(false)
  })

  test('a masked ancestor ("null", a no-referrer frame) is not trusted', () => {
    expect(decide([MODAL, SHOP, 'null'], [SHOP])).toBe(false)
  })

  test('without ancestorOrigins, a verified dapp origin or the trusted list: the popup', () => {
    expect(decide(undefined, [SHOP])).toBe(false)
    expect(decide([MODAL, SHOP], undefined)).toBe(false)
    expect(decide([MODAL, SHOP], [SHOP], undefined)).toBe(false)
    expect(decide([MODAL, SHOP], [SHOP], '')).toBe(false)
    expect(decide([MODAL], [SHOP])).toBe(false)
    expect(decide([], [SHOP])).toBe(false)
  })

  test('origins match exactly: another scheme, port or subdomain is another site', () => {
    for (const dapp of [
      'http://shop.example',
      'https://shop.example:8443',
      'https://a.shop.example',
    ])
      expect(decide([MODAL, dapp], [SHOP], dapp)).toBe(false)
  })
})

describe('decideInlineApproval (this frame, its copy of the list)', () => {
  let ancestors: string[] | undefined
  beforeEach(() => {
    ancestors = [MODAL, SHOP]
    vi.stubGlobal('location', {
      get ancestorOrigins() {
        return ancestors
      },
    })
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
    vi.mocked(inlineApprovalOrigins).mockReset()
  })

  test('a failed read (the API down, an older API without the list) sends the card to the popup, and the next card reads again', async () => {
    vi.mocked(inlineApprovalOrigins).mockRejectedValue(new Error('offline'))
    await readTrustedOrigins()
    expect(decideInlineApproval(SHOP)).toBe(false)
    // The card started a new read (joined here); it fails too.
    await readTrustedOrigins()
    expect(inlineApprovalOrigins).toHaveBeenCalledTimes(2)
    expect(decideInlineApproval(SHOP)).toBe(false)
    await readTrustedOrigins()
    vi.mocked(inlineApprovalOrigins).mockResolvedValue([SHOP])
    await readTrustedOrigins()
    expect(decideInlineApproval(SHOP)).toBe(true)
  })

  test("decides from this frame's ancestors: an untrusted page above the dapp sends it to the popup", async () => {
    vi.mocked(inlineApprovalOrigins).mockResolvedValue([SHOP])
    await readTrustedOrigins()
    expect(decideInlineApproval(SHOP)).toBe(true)
    ancestors = [MODAL, SHOP, OUTER]
    expect(decideInlineApproval(SHOP)).toBe(false)
    ancestors = undefined
    expect(decideInlineApproval(SHOP)).toBe(false)
  })

  test('an untrust reaches the frame: a copy over a minute old is read again for the next card', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.mocked(inlineApprovalOrigins).mockResolvedValue([SHOP])
    await readTrustedOrigins()
    expect(inlineApprovalOrigins).toHaveBeenCalledTimes(1)
    vi.mocked(inlineApprovalOrigins).mockResolvedValue([])
    // A fresh copy is not read again.
    expect(decideInlineApproval(SHOP)).toBe(true)
    await new Promise((done) => setTimeout(done, 0))
    expect(inlineApprovalOrigins).toHaveBeenCalledTimes(1)
    vi.setSystemTime(Date.now() + TRUST_MAX_AGE_MS + 1)
    // This card still uses the copy it has; the read it starts (joined here) decides the next.
    expect(decideInlineApproval(SHOP)).toBe(true)
    await readTrustedOrigins()
    expect(inlineApprovalOrigins).toHaveBeenCalledTimes(2)
    expect(decideInlineApproval(SHOP)).toBe(false)
  })
})
