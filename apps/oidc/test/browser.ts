/**
 * A tiny stand-in for a browser in tests: fetch with a cookie jar that honours `Path`,
 * `Max-Age`/`Expires` and `Secure` (a Secure cookie is never sent over http, as browsers do),
 * manual redirects, and reading and submitting the dev provider's login form.
 */

/** A cookie as the jar keeps it. */
export type StoredCookie = {
  name: string
  value: string
  path: string
  secure: boolean
  httpOnly: boolean
  sameSite: string | undefined
}

/** One response on the way, kept so tests can look at statuses, headers and bodies. */
export type Hop = { url: string; status: number; headers: Headers; body: string }

/** A parsed login form. */
export type LoginForm = {
  action: string
  abortAction: string
  fields: Record<string, string>
  labels: Record<string, string>
}

export class Browser {
  readonly cookies = new Map<string, StoredCookie>()
  /** Every Set-Cookie header received, raw. */
  readonly setCookieHeaders: string[] = []

  /**
   * Requests `url` and follows redirects until a response is not a redirect or the next
   * location starts with `stopAt` (the client's redirect URI, which nothing serves here).
   */
  async navigate(
    url: string,
    init: { method?: string; body?: URLSearchParams; stopAt?: string } = {},
  ): Promise<{ hops: Hop[]; final: Hop | undefined; stoppedAt: URL | undefined }> {
    const hops: Hop[] = []
    let next: string = url
    let method = init.method ?? 'GET'
    let body: URLSearchParams | undefined = init.body
    for (let i = 0; i < 20; i++) {
      if (init.stopAt && next.startsWith(init.stopAt))
        return { hops, final: hops.at(-1), stoppedAt: new URL(next) }
      const response = await fetch(next, {
        method,
        redirect: 'manual',
        headers: { cookie: this.cookieHeader(next) },
        ...(body ? { body } : {}),
      })
      this.store(next, response.headers.getSetCookie())
      const hop = {
        url: next,
        status: response.status,
        headers: response.headers,
        body: await response.text(),
      }
      hops.push(hop)
      const location = response.headers.get('location')
      if (response.status < 300 || response.status >= 400 || !location)
        return { hops, final: hop, stoppedAt: undefined }
      next = new URL(location, next).href
      method = 'GET'
      body = undefined
    }
    throw new Error('Too many redirects')
  }

  private cookieHeader(url: string): string {
    const { pathname, protocol } = new URL(url)
    return [...this.cookies.values()]
      .filter((cookie) => pathMatches(pathname, cookie.path))
      .filter((cookie) => !cookie.secure || protocol === 'https:')
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ')
  }

  private store(url: string, headers: string[]) {
    for (const header of headers) {
      this.setCookieHeaders.push(header)
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim())
      const separator = pair.indexOf('=')
      const name = pair.slice(0, separator)
      const value = pair.slice(separator + 1)
      const attribute = (key: string) =>
        attributes
          .find((part) => part.toLowerCase().startsWith(`${key}=`) || part.toLowerCase() === key)
          ?.split('=')[1]
      const has = (key: string) =>
        attributes.some((part) => part.toLowerCase().split('=')[0] === key)
      const path = attribute('path') ?? defaultPath(url)
      const key = `${name};${path}`
      const expires = attribute('expires')
      const maxAge = attribute('max-age')
      const expired =
        value === '' ||
        (maxAge !== undefined && Number(maxAge) <= 0) ||
        (expires !== undefined && Date.parse(expires) <= Date.now())
      if (expired) this.cookies.delete(key)
      else
        this.cookies.set(key, {
          name,
          value,
          path,
          secure: has('secure'),
          httpOnly: has('httponly'),
          sameSite: attribute('samesite'),
        })
    }
  }
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true
  if (!requestPath.startsWith(cookiePath)) return false
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/'
}

function defaultPath(url: string): string {
  const { pathname } = new URL(url)
  const last = pathname.lastIndexOf('/')
  return last <= 0 ? '/' : pathname.slice(0, last)
}

/** Reads the login form of a dev provider page: actions, field values and their labels. */
export function parseLoginForm(html: string, pageUrl: string): LoginForm {
  const action = html.match(/<form method="post" action="([^"]+)"/)?.[1]
  const abortAction = html.match(/formaction="([^"]+)"/)?.[1]
  if (!action || !abortAction) throw new Error('No login form on the page')
  const fields: Record<string, string> = {}
  for (const [, name = '', value = ''] of html.matchAll(
    /<input id="[^"]+" name="([^"]+)"[^>]*? value="([^"]*)"/g,
  ))
    fields[name] = decodeEntities(value)
  const labels: Record<string, string> = {}
  for (const [, id = '', text = ''] of html.matchAll(/<label for="([^"]+)">([^<]+)<\/label>/g))
    labels[text] = id
  return {
    action: new URL(decodeEntities(action), pageUrl).href,
    abortAction: new URL(decodeEntities(abortAction), pageUrl).href,
    fields,
    labels,
  }
}

function decodeEntities(value: string): string {
  return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
}
