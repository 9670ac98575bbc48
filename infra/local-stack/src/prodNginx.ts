/**
 * nginx for the production stack: `infra/static-hosting/nginx/porthole.conf` with its CHANGE
 * values filled in (public URLs, file paths, cache folder), an `upstream porthole_api` over the
 * API replicas, and a server block for the API itself (every path but `/metrics` proxied to the
 * replicas, with retries of idempotent requests and a request id). Pure text generation plus a
 * check of the nginx binary and the modules the configuration needs.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { cspSource, escapeHtmlAttribute } from '@porthole/static-hosting'

/** The configuration the front-ends' servers fill in (`infra/static-hosting/nginx`). */
export const NGINX_TEMPLATE = resolve(
  import.meta.dirname,
  '../../static-hosting/nginx/porthole.conf',
)

/** Options of {@link prodNginxSiteConfig}. */
export type ProdNginxSiteConfigParameters = {
  /** Public URLs. nginx listens on the modal's, the wallet's and the API's host and port. */
  urls: { modal: string; wallet: string; api: string; relay: string; recovery: string }
  /** The API replicas as `host:port`, in order. */
  replicas: readonly string[]
  /** Chain RPC origins the modal may call besides the API (its CSP and runtime config). */
  rpcOrigins?: readonly string[]
  /** WalletConnect Cloud project id for the modal's runtime config; none on the local relay. */
  walletConnectProjectId?: string | undefined
  /** Folders served: the modal and wallet builds, and the SDK folder (`sdk.js`, `<version>/`). */
  roots: { modal: string; wallet: string; sdk: string }
  /** Folder of the frame-policy cache (nginx's `proxy_cache_path`). */
  cacheDir: string
  /**
   * `max_fails` of each replica (default 0: never marked down). With `http_503` among the
   * retried answers, counting failures would take every replica out during a database outage
   * and turn the API's 503s into nginx's own 502s; on loopback a dead replica costs one refused
   * connection per try instead.
   */
  maxFails?: number
  /** Idle keep-alive connections to the replicas per nginx worker; default 64. */
  keepalive?: number
}

/** Options of {@link prodNginxMainConfig}. */
export type ProdNginxMainConfigParameters = {
  /** The site configuration file to include (from {@link prodNginxSiteConfig}). */
  siteConfig: string
  /** Folder for the pid file and the temp folders. */
  prefix: string
  /** Folder of `nginx-access.log` and `nginx-error.log`. */
  logsDir: string
  /** The brotli_static module to load (from {@link checkNginx}). */
  brotliModule: string
  /** `mime.types` to include; default Debian's. */
  mimeTypes?: string | undefined
  /** Worker processes; default 2. */
  workers?: number
  /** `user` directive (nginx started as root runs its workers as this user); default none. */
  user?: string | undefined
}

const URL_SAFE = /^[a-z][a-z0-9+.-]*:\/\/[A-Za-z0-9._~:[\]@%-]+(?:\/[A-Za-z0-9._~/%-]*)?$/
const PATH_SAFE = /^\/[A-Za-z0-9._~/+@=,-]*$/

/**
 * The site part of the production stack's nginx configuration (to include inside `http {}`):
 * porthole.conf with the deployment values of `parameters`, an `upstream porthole_api` over
 * `replicas` (keep-alive), and an API server that denies `/metrics` and passes everything else
 * to the replicas with `X-Forwarded-For`, `X-Request-Id` (the client's when well formed, else
 * nginx's `$request_id`) and `proxy_next_upstream error timeout http_502 http_503` (nginx never
 * retries a non-idempotent request, POST or PATCH, once it was sent). Throws when the template
 * changed so that a value could not be placed.
 *
 * @example
 * const conf = prodNginxSiteConfig(readFileSync(NGINX_TEMPLATE, 'utf8'), {
 *   urls: endpoints(),
 *   replicas: ['127.0.0.1:4311', '127.0.0.1:4312', '127.0.0.1:4313'],
 *   roots: { modal: 'apps/modal-host/dist', wallet: 'apps/embedded-wallet/dist', sdk: '/tmp/x/sdk' },
 *   cacheDir: '/tmp/x/cache',
 * })
 */
export function prodNginxSiteConfig(
  template: string,
  parameters: ProdNginxSiteConfigParameters,
): string {
  const { urls, replicas, roots } = parameters
  const rpcOrigins = (parameters.rpcOrigins ?? []).map(cspSource)
  for (const url of [...Object.values(urls), ...rpcOrigins])
    if (!URL_SAFE.test(url)) throw new Error(`Not a plain URL for nginx: ${JSON.stringify(url)}`)
  for (const path of [...Object.values(roots), parameters.cacheDir])
    if (!PATH_SAFE.test(path)) throw new Error(`Not a plain absolute path: ${JSON.stringify(path)}`)
  if (replicas.length === 0) throw new Error('No API replica')
  for (const replica of replicas)
    if (!/^[A-Za-z0-9.-]+:\d+$|^\[[0-9a-fA-F:]+\]:\d+$/.test(replica))
      throw new Error(`A replica must be host:port, got ${JSON.stringify(replica)}`)

  const origin = (url: string) => cspSource(url)
  const runtimeConfig = escapeHtmlAttribute(
    JSON.stringify({
      apiUrl: urls.api,
      walletUrl: urls.wallet,
      modalUrl: urls.modal,
      relayUrl: urls.relay,
      recoveryUrl: urls.recovery,
      ...(parameters.walletConnectProjectId
        ? { walletConnectProjectId: parameters.walletConnectProjectId }
        : {}),
      ...(rpcOrigins.length ? { rpcOrigins } : {}),
    }),
  )
  if (/[$"\\]/.test(runtimeConfig)) throw new Error('The runtime config cannot go into nginx')
  const maxFails = parameters.maxFails ?? 0
  const keepalive = parameters.keepalive ?? 64

  let conf = template
  /** Replaces `pattern` exactly `count` times (so a changed template fails loudly). */
  const place = (
    pattern: RegExp,
    replacement: string | ((match: string) => string),
    count: number,
  ) => {
    const found = conf.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))
    if ((found?.length ?? 0) !== count)
      throw new Error(
        `porthole.conf changed: ${pattern} matched ${found?.length ?? 0} times, not ${count}`,
      )
    conf = conf.replace(
      new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`),
      typeof replacement === 'string' ? () => replacement : replacement,
    )
  }
  const listen = (url: string) => {
    const parsed = new URL(url)
    const host = parsed.hostname.endsWith('.localhost') ? '127.0.0.1' : parsed.hostname
    return `listen ${host}:${parsed.port || (parsed.protocol === 'https:' ? 443 : 80)};`
  }

  place(
    /listen 80;(\s+)server_name modal\.porthole\.example;\s+# CHANGE/,
    `${listen(urls.modal)}\n    server_name ${new URL(urls.modal).hostname};`,
    1,
  )
  place(
    /listen 80;(\s+)server_name wallet\.porthole\.example;\s+# CHANGE/,
    `${listen(urls.wallet)}\n    server_name ${new URL(urls.wallet).hostname};`,
    1,
  )
  // The modal calls the devnets (and the Esplora and Solana RPCs) directly as fallbacks.
  place(
    /connect-src 'self' https:\/\/api\.porthole\.example wss:\/\/relay\.porthole\.example; frame-src/,
    `connect-src 'self' ${origin(urls.api)} ${origin(urls.relay)}${rpcOrigins.map((o) => ` ${o}`).join('')}; frame-src`,
    2,
  )
  place(
    /sub_filter "__PORTHOLE_CONFIG__" "[^"]*";/,
    `sub_filter "__PORTHOLE_CONFIG__" "${runtimeConfig}";`,
    4,
  )
  place(
    /server 127\.0\.0\.1:4300;\s+# CHANGE: apps\/api\n(\s+)keepalive 16;/,
    [
      ...(maxFails === 0
        ? [
            '# max_fails=0: a 503 (the API during a database outage) must not take every replica',
            "# out, which would turn the API's 503s into nginx's 502s; a dead replica costs a refused",
            '# connection per try on a LAN. Across a network, prefer active health checks on /readyz.',
          ]
        : []),
      ...replicas.map((replica) => `server ${replica} max_fails=${maxFails};`),
      `keepalive ${keepalive};`,
      'keepalive_requests 10000;',
      'keepalive_timeout 60s;',
    ].join('\n    '),
    1,
  )
  place(/\/var\/cache\/nginx\/porthole/, parameters.cacheDir, 1)
  place(/\/srv\/porthole\/modal-host;/, `${roots.modal};`, 1)
  place(/\/srv\/porthole\/embedded-wallet;/, `${roots.wallet};`, 1)
  place(/alias \/srv\/porthole\/sdk\//, `alias ${roots.sdk}/`, 2)
  // The request id travels to the API from the documents' frame policies and /frame-check too.
  place(
    /proxy_pass http:\/\/porthole_api\/projects\/v1\/frame-policy\?kind=(modal|wallet)&projectId=\$porthole_project_id;/,
    (line) => `${line}\n        proxy_set_header X-Request-Id $porthole_request_id;`,
    2,
  )
  place(
    /proxy_pass http:\/\/porthole_api\/projects\/v1\/frame-check\$is_args\$args;/,
    'proxy_pass http://porthole_api/projects/v1/frame-check$is_args$args;\n        proxy_set_header X-Request-Id $porthole_request_id;',
    1,
  )
  conf = conf
    .replaceAll('https://api.porthole.example', origin(urls.api))
    .replaceAll('https://wallet.porthole.example', origin(urls.wallet))
    .replaceAll('https://modal.porthole.example', origin(urls.modal))
    .replaceAll('wss://relay.porthole.example', origin(urls.relay))
    .replaceAll('https://recovery.porthole.example', origin(urls.recovery))
  // The values are filled in: their CHANGE marks go.
  conf = conf.replace(/;[ \t]+# CHANGE[^\n]*/g, ';')
  const active = conf.replace(/^\s*#.*$/gm, '')
  const left = /porthole\.example|\/srv\/porthole|\/var\/cache\/nginx|# CHANGE/.exec(active)
  if (left) throw new Error(`porthole.conf holds a deployment value not filled in: ${left[0]}`)

  const api = new URL(urls.api)
  return `# Generated by infra/local-stack/src/prodNginx.ts from infra/static-hosting/nginx/porthole.conf
# for the production stack (npm run stack:prod); do not edit.

${conf}
# ---------------------------------------------------------------------------------------
# API (apps/api replicas in upstream porthole_api)
# ---------------------------------------------------------------------------------------

# The request id every API request carries, as the API reads it (apps/api/src/fleet/logger.ts):
# the client's X-Request-Id when it is a short token, else the modal's \`rid\` query parameter
# (<trace>.<n>, so GETs need no CORS preflight), else nginx's own ($request_id, 32 hex digits).
map "$http_x_request_id|$arg_rid" $porthole_request_id {
    default $request_id;
    "~^(?<porthole_given_id>[A-Za-z0-9._:-]{1,128})\\|" $porthole_given_id;
    "~\\|(?<porthole_rid>[A-Za-z0-9._:-]{1,128})$" $porthole_rid;
}

server {
    ${listen(urls.api)}
    server_name ${api.hostname};
    server_tokens off;
    # The RPC proxy takes batches up to 5 MiB.
    client_max_body_size 6m;

    add_header X-Request-Id $porthole_request_id always;

    # Prometheus metrics are read from each replica's own address on the private network,
    # never through the public one (any spelling nginx normalizes to /metrics).
    location ~* ^/metrics(?:/.*)?$ {
        deny all;
    }

    location / {
        proxy_pass http://porthole_api;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        # Run the API with PORTHOLE_API_TRUST_PROXY=1: it reads the right-most entry, nginx's.
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Request-Id $porthole_request_id;
        proxy_hide_header X-Request-Id;
        # A replica that is down, draining or failing: the next one. Only requests nginx may
        # repeat (GET, HEAD, OPTIONS…): a POST is not sent twice (no non_idempotent here).
        proxy_next_upstream error timeout http_502 http_503;
        proxy_next_upstream_tries 3;
        proxy_next_upstream_timeout 15s;
        proxy_connect_timeout 2s;
        # The RPC proxy waits up to 10 s for an upstream.
        proxy_read_timeout 30s;
        proxy_send_timeout 30s;
    }
}
`
}

/**
 * The main nginx.conf of the production stack: in the foreground (`daemon off`), its pid and
 * temp folders under `prefix`, JSON access log with the request id and the replica that
 * answered, brotli_static loaded, and `siteConfig` included.
 *
 * @example
 * const main = prodNginxMainConfig({ siteConfig: '/tmp/x/porthole.conf', prefix: '/tmp/x', logsDir: '/tmp/x/logs', brotliModule })
 */
export function prodNginxMainConfig(parameters: ProdNginxMainConfigParameters): string {
  const { prefix, logsDir } = parameters
  const mime = parameters.mimeTypes ?? '/etc/nginx/mime.types'
  return `# Generated by infra/local-stack/src/prodNginx.ts (npm run stack:prod); do not edit.
load_module ${parameters.brotliModule};
daemon off;
${parameters.user ? `user ${parameters.user};\n` : ''}worker_processes ${parameters.workers ?? 2};
worker_rlimit_nofile 16384;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(logsDir, 'nginx-error.log')} warn;
events {
    worker_connections 4096;
}
http {
    ${existsSync(mime) ? `include ${mime};` : 'types { text/html html; text/javascript js; text/css css; image/svg+xml svg; application/json json; }'}
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65s;
    keepalive_requests 10000;
    log_format porthole_json escape=json '{"time":"$time_iso8601","msec":$msec,"requestId":"$porthole_request_id","remote":"$remote_addr","host":"$host","method":"$request_method","uri":"$uri","status":$status,"bytes":$body_bytes_sent,"duration":$request_time,"upstream":"$upstream_addr","upstreamStatus":"$upstream_status","upstreamDuration":"$upstream_response_time"}';
    access_log ${join(logsDir, 'nginx-access.log')} porthole_json buffer=64k flush=1s;
    client_body_temp_path ${join(prefix, 'temp/body')};
    proxy_temp_path ${join(prefix, 'temp/proxy')};
    fastcgi_temp_path ${join(prefix, 'temp/fastcgi')};
    uwsgi_temp_path ${join(prefix, 'temp/uwsgi')};
    scgi_temp_path ${join(prefix, 'temp/scgi')};
    include ${parameters.siteConfig};
}
`
}

/** What {@link checkNginx} found. */
export type CheckNginxReturnType = {
  /** The nginx binary. */
  binary: string
  /** ngx_brotli's static module (`libnginx-mod-http-brotli-static` on Debian). */
  brotliModule: string
  /** `mime.types` beside nginx's own configuration. */
  mimeTypes: string
  /** What is missing, one line each (empty: everything porthole.conf needs is there). */
  problems: string[]
}

/**
 * Checks that nginx is installed with what porthole.conf needs: the auth_request and sub
 * modules (built in on Debian) and brotli_static (a module file to load).
 *
 * @example
 * const { problems } = checkNginx()
 * if (problems.length) throw new Error(problems.join('\n'))
 */
export function checkNginx(binary = 'nginx'): CheckNginxReturnType {
  const version = spawnSync(binary, ['-V'], { encoding: 'utf8' })
  const info = `${version.stdout ?? ''}${version.stderr ?? ''}`
  const modulesPath = /--modules-path=(\S+)/.exec(info)?.[1] ?? '/usr/lib/nginx/modules'
  const confPath = /--conf-path=(\S+)/.exec(info)?.[1] ?? '/etc/nginx/nginx.conf'
  const brotliModule = join(modulesPath, 'ngx_http_brotli_static_module.so')
  const problems: string[] = []
  if (version.error || version.status !== 0)
    problems.push('nginx is not installed (Debian: apt-get install -y nginx)')
  else {
    for (const module of ['http_auth_request_module', 'http_sub_module'])
      if (!info.includes(`--with-${module}`))
        problems.push(`nginx is built without ${module} (porthole.conf needs it)`)
    if (!existsSync(brotliModule))
      problems.push(
        `brotli_static is missing (${brotliModule}): apt-get install -y libnginx-mod-http-brotli-static`,
      )
  }
  return { binary, brotliModule, mimeTypes: join(dirname(confPath), 'mime.types'), problems }
}

/**
 * Runs `nginx -t` on a main configuration; returns nginx's complaint, or undefined when it
 * loads.
 *
 * @example
 * const error = testNginxConfig('/tmp/x/nginx.conf', '/tmp/x')
 */
export function testNginxConfig(
  mainConfig: string,
  prefix: string,
  binary = 'nginx',
): string | undefined {
  const result = spawnSync(
    binary,
    ['-t', '-q', '-p', prefix, '-e', join(prefix, 'nginx-test.log'), '-c', mainConfig],
    { encoding: 'utf8' },
  )
  if (result.status === 0) return undefined
  const log = join(prefix, 'nginx-test.log')
  return (
    `${result.stderr ?? ''}${existsSync(log) ? readFileSync(log, 'utf8') : ''}`.trim() ||
    `nginx -t failed (${result.status})`
  )
}

/** Options of {@link writeProdNginx}. */
export type WriteProdNginxParameters = Omit<ProdNginxSiteConfigParameters, 'cacheDir'> & {
  /** nginx's folder: configuration, pid, cache and temp folders. */
  dir: string
  /** Folder of its logs. */
  logsDir: string
  /** From {@link checkNginx}. */
  nginx: CheckNginxReturnType
  /** Worker processes; default 2. */
  workers?: number
}

/**
 * Writes `porthole.conf` and `nginx.conf` into `dir` (with the cache and temp folders; when run
 * as root, workers run as `nobody`, which owns those), checks them with `nginx -t`, and returns
 * the arguments that run nginx in the foreground. Throws with nginx's complaint.
 *
 * @example
 * const { args } = writeProdNginx({ dir, logsDir, nginx: checkNginx(), urls, replicas, roots })
 * spawn('nginx', args)
 */
export function writeProdNginx(parameters: WriteProdNginxParameters): {
  mainConfig: string
  args: string[]
} {
  const { dir, logsDir, nginx } = parameters
  const cacheDir = join(dir, 'cache')
  for (const sub of [dir, join(dir, 'temp'), cacheDir, logsDir]) mkdirSync(sub, { recursive: true })
  chmodSync(dir, 0o755)
  let user: string | undefined
  if (process.getuid?.() === 0) {
    const id = (flag: string) => execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim()
    for (const sub of [join(dir, 'temp'), cacheDir])
      chownSync(sub, Number(id('-u')), Number(id('-g')))
    user = `nobody ${id('-gn')}`
    // A checkout in a folder only root may enter (mktemp -d is 0700) is out of nobody's reach:
    // the workers then run as root, or every file would be a 403 (and scripts blocked as such).
    const readable = [
      join(parameters.roots.modal, 'index.html'),
      join(parameters.roots.wallet, 'index.html'),
      join(parameters.roots.sdk, 'sdk.js'),
    ].every((file) => {
      try {
        execFileSync('runuser', ['-u', 'nobody', '--', 'test', '-r', file], { stdio: 'ignore' })
        return true
      } catch {
        return false
      }
    })
    if (!readable) user = 'root root'
  }
  const { dir: _dir, logsDir: _logs, nginx: _nginx, workers, ...site } = parameters
  const siteConfig = join(dir, 'porthole.conf')
  writeFileSync(
    siteConfig,
    prodNginxSiteConfig(readFileSync(NGINX_TEMPLATE, 'utf8'), { ...site, cacheDir }),
  )
  const mainConfig = join(dir, 'nginx.conf')
  writeFileSync(
    mainConfig,
    prodNginxMainConfig({
      siteConfig,
      prefix: dir,
      logsDir,
      brotliModule: nginx.brotliModule,
      mimeTypes: nginx.mimeTypes,
      user,
      ...(workers === undefined ? {} : { workers }),
    }),
  )
  const problem = testNginxConfig(mainConfig, dir, nginx.binary)
  if (problem) throw new Error(`nginx refuses ${mainConfig}:\n${problem}`)
  return { mainConfig, args: ['-p', dir, '-e', join(logsDir, 'nginx-error.log'), '-c', mainConfig] }
}
