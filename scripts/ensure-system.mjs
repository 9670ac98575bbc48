// Makes sure the system packages the tests need are present: Debian's Chromium (Playwright
// runs it; `npx playwright install` cannot download here), PostgreSQL (the API's database
// tests run against a throwaway cluster) and nginx with its brotli_static module (the
// production config is tested), and Redis (the API fleet's shared rate limits and caches are
// tested against a throwaway redis-server). Installs them with apt-get when running as root.
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const has = (command) => {
  try {
    execSync(`command -v ${command}`, { stdio: 'ignore', shell: '/bin/sh' })
    return true
  } catch {
    return false
  }
}
const pgOnPath = () => has('initdb') || existsSync('/usr/lib/postgresql')

const missing = []
if (!existsSync('/usr/bin/chromium')) missing.push('chromium')
if (!pgOnPath()) missing.push('postgresql')
if (!existsSync('/usr/sbin/nginx')) missing.push('nginx')
if (!existsSync('/usr/lib/nginx/modules/ngx_http_brotli_static_module.so'))
  missing.push('libnginx-mod-http-brotli-static')
if (!existsSync('/usr/bin/redis-server')) missing.push('redis-server')
if (missing.length) {
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    console.error(
      `Missing system packages: ${missing.join(', ')}. Install them (Debian: apt-get install -y ${missing.join(' ')}).`,
    )
    process.exit(1)
  }
  console.log(`Installing ${missing.join(', ')} with apt-get…`)
  execSync('apt-get update -qq', { stdio: 'inherit' })
  execSync(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`, {
    stdio: 'inherit',
  })
}
