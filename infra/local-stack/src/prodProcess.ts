/**
 * A supervised child process of the production stack (a PostgreSQL, a Redis, an nginx, an API
 * replica): output appended to a log file, restarted after an unexpected exit when asked (as
 * systemd's `Restart=always` would), stopped with its own signal and a deadline.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'

/** Options of {@link superviseProcess}. */
export type SuperviseProcessParameters = {
  /** Name in messages and logs (`api-1`, `postgres`). */
  name: string
  command: string
  args: readonly string[]
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** Run as this user (the stack started as root: PostgreSQL refuses root). */
  uid?: number | undefined
  gid?: number | undefined
  /** Where its stdout and stderr go (appended, written by the child itself). */
  logFile: string
  /** The signal of an orderly stop (PostgreSQL: SIGINT, fast shutdown); default SIGTERM. */
  stopSignal?: NodeJS.Signals
  /** How long an orderly stop may take before SIGKILL; default 15 s. */
  stopTimeoutMs?: number
  /** Start it again this long after an exit nobody asked for; default never. */
  restartDelayMs?: number | undefined
  /** Told about exits and restarts. */
  log?: (line: string) => void
}

/** A supervised process. */
export type SupervisedProcess = {
  readonly name: string
  /** Its pid while it runs. */
  pid(): number | undefined
  /** Starts made so far (1 after the first start). */
  starts(): number
  /** Whether it runs now. */
  running(): boolean
  /** Starts it (again) unless it runs. */
  start(): void
  /**
   * Sends `signal` (default SIGKILL) as a crash would: the supervisor restarts it after its
   * delay unless `hold` (then it stays down until {@link SupervisedProcess.start}).
   */
  kill(signal?: NodeJS.Signals, options?: { hold?: boolean }): Promise<void>
  /** Orderly stop (its stop signal, SIGKILL after the deadline); it stays down. */
  stop(): Promise<void>
}

/**
 * Starts `command` and keeps it running as the options say.
 *
 * @example
 * const redis = superviseProcess({ name: 'redis', command: 'redis-server', args: ['--port', '4381'], logFile: '/tmp/redis.log', restartDelayMs: 1000 })
 * await redis.stop()
 */
export function superviseProcess(parameters: SuperviseProcessParameters): SupervisedProcess {
  const { name, stopSignal = 'SIGTERM', stopTimeoutMs = 15_000, log = () => {} } = parameters
  let child: ChildProcess | undefined
  let exited: Promise<void> = Promise.resolve()
  let wanted = false
  let hold = false
  let starts = 0
  let restartTimer: NodeJS.Timeout | undefined

  const start = () => {
    wanted = true
    hold = false
    if (restartTimer) clearTimeout(restartTimer)
    restartTimer = undefined
    if (child) return
    // The child writes its log itself (no copy through this process, which matters for API
    // replicas logging every request under load).
    const output = openSync(parameters.logFile, 'a')
    starts++
    // Its own process group: a Ctrl-C in the terminal reaches the stack only, which then stops
    // everything in order (nginx, then the replicas, then the stores).
    const started = spawn(parameters.command, [...parameters.args], {
      cwd: parameters.cwd,
      env: parameters.env ?? process.env,
      stdio: ['ignore', output, output],
      detached: true,
      ...(parameters.uid === undefined ? {} : { uid: parameters.uid }),
      ...(parameters.gid === undefined ? {} : { gid: parameters.gid }),
    })
    closeSync(output)
    child = started
    exited = new Promise<void>((done) => {
      started.once('error', (error) => {
        log(`${name}: could not start: ${error.message}`)
        if (child === started) child = undefined
        done()
      })
      started.once('exit', (code, signal) => {
        if (child === started) child = undefined
        done()
        if (!wanted || hold) return
        log(
          `${name} exited (${signal ?? code}); restarting in ${parameters.restartDelayMs ?? 0} ms`,
        )
        if (parameters.restartDelayMs === undefined) return
        restartTimer = setTimeout(() => {
          restartTimer = undefined
          if (wanted && !hold) start()
        }, parameters.restartDelayMs)
      })
    })
  }

  const stop = async () => {
    wanted = false
    if (restartTimer) clearTimeout(restartTimer)
    restartTimer = undefined
    const running = child
    if (running?.pid !== undefined) {
      const deadline = setTimeout(() => {
        try {
          process.kill(running.pid as number, 'SIGKILL')
        } catch {}
      }, stopTimeoutMs)
      try {
        process.kill(running.pid, stopSignal)
      } catch {}
      await exited
      clearTimeout(deadline)
    }
  }

  start()
  return {
    name,
    pid: () => child?.pid,
    starts: () => starts,
    running: () => child !== undefined,
    start,
    kill: async (signal = 'SIGKILL', options = {}) => {
      const running = child
      if (!running?.pid) return
      hold = options.hold ?? false
      try {
        process.kill(running.pid, signal)
      } catch {}
      if (signal === 'SIGKILL') await exited
    },
    stop,
  }
}
