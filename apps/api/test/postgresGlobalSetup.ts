/**
 * Vitest global setup: provides a PostgreSQL server URL to the tests as `inject('postgres')`.
 * Uses PORTHOLE_TEST_PG_URL when set; otherwise starts a throwaway cluster with `initdb` and
 * `pg_ctl` from PATH or /usr/lib/postgresql/<version>/bin (as the `postgres` user when running as root, since initdb refuses root)
 * on a free loopback port in a temp dir, and stops and deletes it in teardown. When neither is
 * available it provides an error, and every PostgreSQL test fails with it (never skips).
 */
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { freePort } from './freePort.js'

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: { url: string } | { error: string }
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const given = process.env.PORTHOLE_TEST_PG_URL
  if (given) {
    project.provide('postgres', { url: given })
    return undefined
  }
  const initdb = which('initdb')
  const pgCtl = which('pg_ctl')
  if (!initdb || !pgCtl) {
    project.provide('postgres', {
      error:
        'PostgreSQL tests need PORTHOLE_TEST_PG_URL (a server the tests may create schemas in) or `initdb` and `pg_ctl` on PATH (Debian: apt-get install postgresql)',
    })
    return undefined
  }

  const dir = mkdtempSync(join(tmpdir(), 'porthole-pg-'))
  const data = join(dir, 'data')
  const log = join(dir, 'server.log')
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
    chownSync(dir, uid, gid)
  }
  const runuser = which('runuser') ?? ['/usr/sbin/runuser', '/sbin/runuser'].find(existsSync)
  const run = (command: string, args: string[]) =>
    asRoot
      ? execFileSync(runuser ?? 'runuser', ['-u', 'postgres', '--', command, ...args], {
          stdio: 'pipe',
        })
      : execFileSync(command, args, { stdio: 'pipe' })

  try {
    run(initdb, [
      '-D',
      data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--locale=C',
    ])
    const port = await freePort()
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ')
    run(pgCtl, ['-D', data, '-l', log, '-o', settings, '-w', '-t', '30', 'start'])
    project.provide('postgres', { url: `postgres://postgres@127.0.0.1:${port}/postgres` })
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error)
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : ''
    rmSync(dir, { recursive: true, force: true })
    project.provide('postgres', {
      error: `Could not start a throwaway PostgreSQL with initdb/pg_ctl: ${output}\n${serverLog}`,
    })
    return undefined
  }

  return () => {
    try {
      run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** `command` on PATH, else in Debian's versioned /usr/lib/postgresql/<version>/bin (newest first). */
function which(command: string): string | undefined {
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => `/usr/lib/postgresql/${version}/bin`)
    : []
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...debian]) {
    const path = join(dir, command)
    if (dir && existsSync(path)) return path
  }
  return undefined
}
