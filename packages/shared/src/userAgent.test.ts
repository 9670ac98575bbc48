import { expect, test } from 'vitest'
import { describeUserAgent } from './userAgent.js'

test.each([
  [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
    'Chrome 156 on Linux',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    'Safari 18 on iOS',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    'Firefox 133 on Windows',
  ],
  [undefined, 'An unknown browser on an unknown system'],
])('describeUserAgent(%s) is %s', (ua, expected) => {
  expect(describeUserAgent(ua)).toBe(expected)
})
