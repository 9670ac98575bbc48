import { parseArgs } from 'node:util'
import { endpoints, InvalidOriginPatternError } from '@porthole/shared'
import { parseEther } from 'viem'
import type { Db } from '../db/Db.js'
import { openDatabase, redactUrl } from '../db/openDatabase.js'
import {
  getSponsorshipRules,
  InvalidDailyBudgetError,
  InvalidDailyCapError,
} from '../paymaster/sponsorship.js'
import { addProjectDomain } from '../projects/addProjectDomain.js'
import { allowOrigin } from '../projects/allowOrigin.js'
import { createProject } from '../projects/createProject.js'
import { denyOrigin } from '../projects/denyOrigin.js'
import { RecoveryPolicy } from '../projects/features.js'
import { getProject } from '../projects/getProject.js'
import { listProjectDomains } from '../projects/listProjectDomains.js'
import { listProjects } from '../projects/listProjects.js'
import {
  InvalidProjectIdError,
  ProjectExistsError,
  ProjectNotFoundError,
} from '../projects/Project.js'
import {
  CustomDomainTakenError,
  InvalidCustomDomainError,
  type ProjectDomain,
  passkeyRpIdOf,
  siteOf,
} from '../projects/ProjectDomain.js'
import { removeProjectDomain } from '../projects/removeProjectDomain.js'
import { setProjectFeatures } from '../projects/setProjectFeatures.js'
import {
  OriginNotAllowedError,
  trustOrigin,
  untrustOrigin,
  WildcardTrustError,
} from '../projects/trustOrigin.js'
import { parseFeatureChange, projectFeature } from './projectFeature.js'
import { describeSponsorship, projectSponsorship } from './projectSponsorship.js'

/** Usage text of the admin CLI. */
export const USAGE = `Usage: npm run admin -- <command>

Commands:
  project create --origin <origin> [--origin <origin>…] [--name <name>]
      Create a project; prints its projectId alone on the last line.
  project allow <projectId> <origin>
      Add an origin pattern to a project's allowlist.
  project deny <projectId> <origin>
      Remove an origin pattern from a project's allowlist (and its trust).
  project trust <projectId> [<origin>]
      Let approvals complete inside the page on this allowed origin (an exact origin, no
      wildcard) when every site framing it is trusted too; elsewhere each approval opens the
      wallet's popup window. Trust only a site you vetted: no browser tells the wallet when a
      page masks the approval card down to its Approve button. Without an origin, list the
      project's trusted origins. Open frames follow a change within a minute.
  project untrust <projectId> <origin>
      Back to the popup for every approval on that origin (it stays allowed).
  project list
      List projects (id, name, origins, gas sponsorship).
  project recovery <projectId> <automatic|user>
      How the project's embedded wallets are recovered on a new device or site: automatic (the
      recovery key service checks the user by e-mail or identity provider; its operator and the
      API's together could recover a wallet, neither alone) or user (the user's own passkey;
      nobody else can, and a lost passkey with no device left loses the wallet).
  project feature <projectId> [<feature> <on|off|default|providers>]
      Turn a remote feature (GET /appkit/v1/config) on or off for a project, or back to its
      default; without a feature, list them. Features: email, socials, activity, multiWallet,
      swaps, onramp, analytics; socials, swaps and onramp also take a comma list of providers
      (e.g. socials google,github). A running stack applies it within a second, no restart.
  project sponsorship <projectId> [on|off] [--daily-cap <n>] [--project-daily-cap <n>]
                      [--project-daily-budget <ETH>]
      Whether the paymaster sponsors the gas of the project's user operations (ERC-7677 on the
      RPC proxy), and how many per sending account (default 20) and for the whole project
      (default 1000) a UTC day, and how much ETH of gas the project's sponsorships may cost a
      day, each counted at its maximum (default 1); without on/off, show it. Default: on for
      the demo project, off for others. Applies to the next request.
  project domain add <projectId> <modalOrigin> [--wallet <walletOrigin>]
      Serve the project's modal (and wallet) frames on the dapp's own site, e.g.
      https://connect.app.example and https://wallet.app.example for https://app.example:
      wallets then name the dapp's site, the wallet's storage is first-party and its passkeys
      belong to that site. Point the names at Porthole's hosting (CNAME) first. Without
      --wallet the modal frames Porthole's wallet origin, which then answers only that modal
      for the project. Adding a modal origin again replaces its wallet origin.
  project domain list [<projectId>]
      List custom domains (every project's, or one's).
  project domain remove <projectId> <modalOrigin>
      Stop serving the project on that modal origin (and its wallet origin).

Origins are scheme://host[:port]; "*." may lead the host (any subdomain) and ":*" stands for
any port, e.g. https://*.example.com or http://localhost:*.
The database is PORTHOLE_DATABASE_URL (default: <repo>/.data/porthole.db).`

/** Where the CLI writes and which database it opens. */
export type RunAdminOptions = {
  stdout: (line: string) => void
  stderr: (line: string) => void
  /** Database URL; default `PORTHOLE_DATABASE_URL` or the repo's `.data/porthole.db`. */
  databaseUrl?: string
}

/** A usage error: the message is printed with a pointer to the usage. */
class UsageError extends Error {
  override name = 'UsageError' as const
}

/**
 * Runs one admin command and returns the process exit code (0 success, 1 failure). Errors are
 * written to `stderr` as one clear sentence.
 *
 * @example
 * const code = await runAdmin(['project', 'list'], { stdout: console.log, stderr: console.error })
 */
export async function runAdmin(argv: readonly string[], options: RunAdminOptions): Promise<number> {
  const { stdout, stderr } = options
  let db: Db | undefined
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        origin: { type: 'string', multiple: true },
        name: { type: 'string' },
        'daily-cap': { type: 'string' },
        'project-daily-cap': { type: 'string' },
        'project-daily-budget': { type: 'string' },
        wallet: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
    if (values.help || positionals[0] === 'help') {
      stdout(USAGE)
      return 0
    }
    const [group, command, ...rest] = positionals
    if (group !== 'project')
      throw new UsageError(group ? `Unknown command: ${group}` : 'Missing command')
    const open = async () => {
      db = await openDatabase(options.databaseUrl === undefined ? {} : { url: options.databaseUrl })
      return db
    }
    switch (command) {
      case 'create': {
        expectArgs(rest, 0, 'project create takes no positional arguments')
        for (const cap of SPONSORSHIP_OPTIONS)
          if (values[cap] !== undefined)
            throw new UsageError(`project create takes no --${cap}: use project sponsorship`)
        const origins = values.origin ?? []
        if (origins.length === 0) throw new UsageError('project create needs at least one --origin')
        if (values.name !== undefined && !values.name.trim())
          throw new UsageError('--name must not be empty')
        const project = await createProject(await open(), {
          origins,
          ...(values.name === undefined ? {} : { name: values.name }),
        })
        stdout(`Created project "${project.name}" allowing ${project.origins.join(', ')}`)
        stdout(project.id)
        return 0
      }
      case 'allow':
      case 'deny': {
        noOptions(values, `project ${command}`)
        expectArgs(rest, 2, `project ${command} needs <projectId> <origin>`)
        const [projectId, origin] = rest as [string, string]
        if (command === 'allow') {
          const result = await allowOrigin(await open(), { projectId, origin })
          stdout(
            result.added
              ? `Allowed ${result.origin} for project ${projectId}`
              : `${result.origin} was already allowed for project ${projectId}`,
          )
        } else {
          const result = await denyOrigin(await open(), { projectId, origin })
          stdout(
            result.removed
              ? `Denied ${result.origin} for project ${projectId}`
              : `${result.origin} was not in the allowlist of project ${projectId}`,
          )
        }
        return 0
      }
      case 'trust':
      case 'untrust': {
        noOptions(values, `project ${command}`)
        if (command === 'trust' && rest.length === 1) {
          const [projectId] = rest as [string]
          const project = await getProject(await open(), projectId)
          if (!project) throw new ProjectNotFoundError(projectId)
          if (project.inlineApprovalOrigins.length === 0)
            stdout(
              `No origin of project ${projectId} is trusted: every approval opens the wallet window.`,
            )
          for (const origin of project.inlineApprovalOrigins) stdout(origin)
          return 0
        }
        expectArgs(
          rest,
          2,
          command === 'trust'
            ? 'project trust needs <projectId> [<origin>]'
            : 'project untrust needs <projectId> <origin>',
        )
        const [projectId, origin] = rest as [string, string]
        const database = await open()
        if (command === 'trust') {
          const result = await trustOrigin(database, { projectId, origin })
          stdout(
            result.changed
              ? `Trusted ${result.origin} for approvals in the page (project ${projectId})`
              : `${result.origin} was already trusted for approvals in the page (project ${projectId})`,
          )
        } else {
          const result = await untrustOrigin(database, { projectId, origin })
          stdout(
            result.changed
              ? `Approvals on ${result.origin} open the wallet window again (project ${projectId})`
              : `${result.origin} was not trusted for approvals in the page (project ${projectId})`,
          )
        }
        return 0
      }
      case 'recovery': {
        noOptions(values, 'project recovery')
        expectArgs(rest, 2, 'project recovery needs <projectId> <automatic|user>')
        const [projectId, policy] = rest as [string, string]
        const parsed = RecoveryPolicy.safeParse(policy)
        if (!parsed.success)
          throw new UsageError(`Unknown recovery policy "${policy}": use automatic or user`)
        const database = await open()
        const project = await getProject(database, projectId)
        if (!project) throw new ProjectNotFoundError(projectId)
        await setProjectFeatures(database, {
          projectId,
          features: { ...project.features, recovery: parsed.data },
        })
        stdout(`Project ${projectId} now recovers wallets: ${parsed.data}`)
        return 0
      }
      case 'feature': {
        noOptions(values, 'project feature')
        if (rest.length !== 1 && rest.length !== 3)
          throw new UsageError(
            'project feature needs <projectId> [<feature> <on|off|default|providers>]',
          )
        const [projectId, name, setting] = rest as [string, string?, string?]
        const parsed = name === undefined ? undefined : parseFeatureChange(name, setting as string)
        if (parsed && 'error' in parsed) throw new UsageError(parsed.error)
        const lines = await projectFeature(await open(), { projectId, change: parsed?.change })
        for (const line of lines) stdout(line)
        return 0
      }
      case 'sponsorship': {
        if (values.origin !== undefined || values.name !== undefined)
          throw new UsageError('project sponsorship takes no --origin or --name')
        if (rest.length !== 1 && rest.length !== 2)
          throw new UsageError(
            'project sponsorship needs <projectId> [on|off] [--daily-cap <n>] [--project-daily-cap <n>] [--project-daily-budget <ETH>]',
          )
        const [projectId, setting] = rest as [string, string?]
        if (setting !== undefined && setting !== 'on' && setting !== 'off')
          throw new UsageError(`Unknown sponsorship setting "${setting}": use on or off`)
        const caps = {
          dailyCap: parseCap(values['daily-cap'], '--daily-cap', setting),
          projectDailyCap: parseCap(values['project-daily-cap'], '--project-daily-cap', setting),
          projectDailyBudget: parseBudget(values['project-daily-budget'], setting),
        }
        const lines = await projectSponsorship(await open(), {
          projectId,
          enabled: setting === undefined ? undefined : setting === 'on',
          ...caps,
        })
        for (const line of lines) stdout(line)
        return 0
      }
      case 'domain': {
        const [action, ...args] = rest
        if (action !== 'add') noOptions(values, `project domain ${action ?? ''}`.trim())
        else noOptions({ ...values, wallet: undefined }, 'project domain add')
        const lines = await projectDomain(action, args, values.wallet, open)
        for (const line of lines) stdout(line)
        return 0
      }
      case 'list': {
        noOptions(values, 'project list')
        expectArgs(rest, 0, 'project list takes no arguments')
        const database = await open()
        const projects = await listProjects(database)
        if (projects.length === 0) {
          stdout('No projects.')
          return 0
        }
        const rows = await Promise.all(
          projects.map(async (project) => ({
            ...project,
            originList: project.origins.join(', ') || '(none)',
            sponsorship: describeSponsorship(await getSponsorshipRules(database, project.id)),
          })),
        )
        const idWidth = Math.max(2, ...rows.map((p) => p.id.length))
        const nameWidth = Math.max(4, ...rows.map((p) => p.name.length))
        const originWidth = Math.max(7, ...rows.map((p) => p.originList.length))
        stdout(
          `${'ID'.padEnd(idWidth)}  ${'NAME'.padEnd(nameWidth)}  ${'ORIGINS'.padEnd(originWidth)}  GAS SPONSORSHIP`,
        )
        for (const row of rows)
          stdout(
            `${row.id.padEnd(idWidth)}  ${row.name.padEnd(nameWidth)}  ${row.originList.padEnd(originWidth)}  ${row.sponsorship}`,
          )
        return 0
      }
      default:
        throw new UsageError(
          command ? `Unknown project command: ${command}` : 'Missing project command',
        )
    }
  } catch (error) {
    stderr(`Error: ${describe(error, options.databaseUrl)}`)
    if (error instanceof UsageError || isParseArgsError(error)) stderr(`\n${USAGE}`)
    return 1
  } finally {
    await db?.close()
  }
}

/** `project domain add|list|remove`: the lines to print. */
async function projectDomain(
  action: string | undefined,
  args: readonly string[],
  wallet: string | undefined,
  open: () => Promise<Db>,
): Promise<string[]> {
  switch (action) {
    case 'add': {
      expectArgs(args, 2, 'project domain add needs <projectId> <modalOrigin> [--wallet <origin>]')
      const [projectId, modalOrigin] = args as [string, string]
      // Porthole's own frame origins (this environment's) are nobody's custom domain.
      const { modal, wallet: portholeWallet } = endpoints()
      const db = await open()
      const { domain, added } = await addProjectDomain(db, {
        projectId,
        modalOrigin,
        walletOrigin: wallet,
        reserved: [modal, portholeWallet],
      })
      const project = await getProject(db, projectId)
      return [
        `${added ? 'Added' : 'Updated'} ${describeDomain(domain)}`,
        ...domainNotes(domain, project?.origins ?? []),
      ]
    }
    case 'list': {
      if (args.length > 1) throw new UsageError('project domain list takes at most <projectId>')
      const domains = await listProjectDomains(
        await open(),
        args[0] === undefined ? {} : { projectId: args[0] },
      )
      return domains.length === 0 ? ['No custom domains.'] : domains.map(describeDomain)
    }
    case 'remove': {
      expectArgs(args, 2, 'project domain remove needs <projectId> <modalOrigin>')
      const [projectId, modalOrigin] = args as [string, string]
      const { removed } = await removeProjectDomain(await open(), { projectId, modalOrigin })
      return [
        removed
          ? `Removed ${describeDomain(removed)}`
          : `${modalOrigin} was not a custom domain of project ${projectId}`,
      ]
    }
    default:
      throw new UsageError(
        action
          ? `Unknown project domain command: ${action}`
          : 'project domain needs add, list or remove',
      )
  }
}

/** One line per custom domain: project, modal, wallet and the passkeys' relying party. */
function describeDomain(domain: ProjectDomain): string {
  const wallet = domain.walletOrigin
    ? `wallet ${domain.walletOrigin} (passkeys for ${passkeyRpIdOf(domain.walletOrigin)})`
    : "Porthole's wallet origin"
  return `project ${domain.projectId}: modal ${domain.modalOrigin}, ${wallet}`
}

/** Warnings for a setup that works but does not give what custom domains are for. */
function domainNotes(domain: ProjectDomain, allowed: readonly string[]): string[] {
  const site = (origin: string) => siteOf(new URL(origin).hostname)
  const modalSite = site(domain.modalOrigin)
  const sites = new Set(
    allowed.map((pattern) =>
      siteOf(pattern.replace(/^[a-z]+:\/\/(\*\.)?/, '').replace(/:.*$/, '')),
    ),
  )
  const notes: string[] = []
  if (!sites.has(modalSite))
    notes.push(
      `Note: no allowed origin of project ${domain.projectId} is on ${modalSite}: the modal is framed from another site, so the wallet's storage stays third-party there.`,
    )
  if (domain.walletOrigin && site(domain.walletOrigin) !== modalSite)
    notes.push(
      `Note: the wallet (${domain.walletOrigin}) is not on the modal's site (${modalSite}): its storage is third-party inside that modal.`,
    )
  notes.push('Frames on these origins are served within about 2 s (API and hosting caches).')
  return notes
}

function expectArgs(args: readonly string[], count: number, message: string): void {
  if (args.length !== count) throw new UsageError(message)
}

function noOptions(
  values: {
    origin?: string[]
    name?: string | undefined
    'daily-cap'?: string | undefined
    'project-daily-cap'?: string | undefined
    'project-daily-budget'?: string | undefined
    wallet?: string | undefined
  },
  command: string,
): void {
  if (values.origin !== undefined || values.name !== undefined)
    throw new UsageError(`${command} takes no --origin or --name`)
  if (values.wallet !== undefined)
    throw new UsageError(`${command} takes no --wallet (it goes with project domain add)`)
  for (const cap of SPONSORSHIP_OPTIONS)
    if (values[cap] !== undefined)
      throw new UsageError(`${command} takes no --${cap} (it goes with project sponsorship)`)
}

/** The options of `project sponsorship` alone. */
const SPONSORSHIP_OPTIONS = ['daily-cap', 'project-daily-cap', 'project-daily-budget'] as const

/**
 * `--project-daily-budget`: an amount of ETH (decimal, at most 9 decimals: whole gwei) from
 * 0.000000001 to 1,000,000, with on or off; answered in wei.
 */
function parseBudget(value: string | undefined, setting: string | undefined): bigint | undefined {
  if (value === undefined) return undefined
  if (setting === undefined) throw new UsageError('--project-daily-budget goes with on or off')
  const wei = /^[0-9]{1,7}(\.[0-9]{1,9})?$/.test(value) ? parseEther(value) : 0n
  if (wei < 1_000_000_000n || wei > parseEther('1000000'))
    throw new UsageError(
      `--project-daily-budget must be an amount of ETH from 0.000000001 to 1000000 (at most 9 decimals), not "${value}"`,
    )
  return wei
}

/** A cap option of `project sponsorship`: a whole number from 1 to 1,000,000, with on or off. */
function parseCap(
  value: string | undefined,
  option: string,
  setting: string | undefined,
): number | undefined {
  if (value === undefined) return undefined
  if (setting === undefined) throw new UsageError(`${option} goes with on or off`)
  if (!/^[1-9][0-9]{0,6}$/.test(value) || Number(value) > 1e6)
    throw new UsageError(`${option} must be a whole number from 1 to 1000000, not "${value}"`)
  return Number(value)
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return error instanceof TypeError && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')
}

function describe(error: unknown, databaseUrl: string | undefined): string {
  if (
    error instanceof UsageError ||
    error instanceof ProjectNotFoundError ||
    error instanceof ProjectExistsError ||
    error instanceof InvalidProjectIdError ||
    error instanceof InvalidOriginPatternError ||
    error instanceof InvalidDailyCapError ||
    error instanceof InvalidDailyBudgetError ||
    error instanceof InvalidCustomDomainError ||
    error instanceof CustomDomainTakenError ||
    error instanceof OriginNotAllowedError ||
    error instanceof WildcardTrustError ||
    isParseArgsError(error)
  )
    return (error as Error).message
  const message = error instanceof Error ? error.message : String(error)
  return `${message}${databaseUrl ? ` (database ${redactUrl(databaseUrl)})` : ''}`
}
