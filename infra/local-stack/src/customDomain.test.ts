import { endpoints } from '@porthole/shared'
import { expect, test } from 'vitest'
import { customDomainUrls } from './customDomain.js'

test("the demo's own site and frames sit on the default setup's ports", () => {
  expect(customDomainUrls(endpoints({}))).toEqual({
    demo: 'http://app.localhost:4000',
    modal: 'http://connect.app.localhost:4100',
    wallet: 'http://wallet.app.localhost:4200',
  })
})

test('they follow moved ports and schemes', () => {
  expect(
    customDomainUrls(
      endpoints({
        PORTHOLE_DEMO_URL: 'http://localhost:5000',
        PORTHOLE_MODAL_URL: 'https://modal.example',
        PORTHOLE_WALLET_URL: 'http://wallet.localhost:5200',
      }),
    ),
  ).toEqual({
    demo: 'http://app.localhost:5000',
    modal: 'https://connect.app.localhost',
    wallet: 'http://wallet.app.localhost:5200',
  })
})
