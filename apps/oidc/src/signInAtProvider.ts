/**
 * A browser stand-in for tests: plays a login at this package's providers (or any
 * `oidc-provider` with its development login form) without a browser.
 */

/**
 * Plays the popup: follows the authorization URL with a cookie jar, submits the provider's login
 * (as `login`; this package's form gets `login` as e-mail and username) and consent forms, and returns the URL it is finally sent to under `stopAt`
 * (the API's callback), without requesting it.
 *
 * @example
 * const callback = await signInAtProvider(uri, 'alice', 'http://api.test/')
 */
export async function signInAtProvider(uri: string, login: string, stopAt: string): Promise<URL> {
  const jar = new Map<string, string>()
  const go = async (url: URL, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([key, value]) => `${key}=${value}`).join('; '),
      },
    })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';')
      const at = pair.indexOf('=')
      jar.set(pair.slice(0, at), pair.slice(at + 1))
    }
    return response
  }
  let url = new URL(uri)
  let response = await go(url)
  for (let step = 0; step < 12; step++) {
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url)
      if (url.href.startsWith(stopAt)) return url
      response = await go(url)
      continue
    }
    const html = await response.text()
    if (response.status !== 200) throw new Error(`Provider answered ${response.status}: ${html}`)
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
    if (!action) throw new Error(`No form at ${url.href}`)
    const form = new URLSearchParams()
    for (const [input] of html.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(input)?.[1]
      if (name) form.set(name, /value="([^"]*)"/.exec(input)?.[1] ?? '')
    }
    if (form.has('login')) form.set('login', login)
    // This package's own login form asks for an e-mail and a username.
    if (form.has('email')) form.set('email', login.includes('@') ? login : `${login}@example.test`)
    if (form.has('username')) form.set('username', login.replace(/@.*/, ''))
    if (form.has('password')) form.set('password', 'any')
    url = new URL(action, url)
    response = await go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    })
  }
  throw new Error('Too many steps at the provider')
}
