import { formatEther } from 'viem'
import type { Db } from '../db/Db.js'
import {
  getSponsorshipRules,
  type SponsorshipRules,
  setSponsorshipRules,
} from '../paymaster/sponsorship.js'
import { getProject } from '../projects/getProject.js'
import { ProjectNotFoundError } from '../projects/Project.js'

/**
 * A project's sponsorship rules in words, for the admin CLI.
 *
 * @example
 * describeSponsorship({ enabled: true, dailyCap: 20, projectDailyCap: 1000, projectDailyBudget: 10n ** 18n })
 * // 'on, 20 user operations per account and 1000 per project a day, at most 1 ETH of gas'
 */
export function describeSponsorship({
  enabled,
  dailyCap,
  projectDailyCap,
  projectDailyBudget,
}: SponsorshipRules): string {
  return enabled
    ? `on, ${dailyCap} user operation${dailyCap === 1 ? '' : 's'} per account and ${projectDailyCap} per project a day, at most ${formatEther(projectDailyBudget)} ETH of gas`
    : 'off'
}

/** Parameters of {@link projectSponsorship}: the project, and what to change (if anything). */
export type ProjectSponsorshipParameters = {
  projectId: string
  enabled?: boolean | undefined
  dailyCap?: number | undefined
  projectDailyCap?: number | undefined
  /** Wei. */
  projectDailyBudget?: bigint | undefined
}

/**
 * Shows or changes a project's gas sponsorship (the paymaster's `pm_*` on the RPC proxy) and
 * answers the lines to print. A running API applies a change to its next `pm_*` call.
 *
 * @example
 * await projectSponsorship(db, { projectId: 'porthole-demo', enabled: true, dailyCap: 5 })
 * // ['Project porthole-demo: gas sponsorship is now on, 5 user operations per account and 1000 per project a day, at most 1 ETH of gas']
 */
export async function projectSponsorship(
  db: Db,
  {
    projectId,
    enabled,
    dailyCap,
    projectDailyCap,
    projectDailyBudget,
  }: ProjectSponsorshipParameters,
): Promise<string[]> {
  if (
    enabled === undefined &&
    dailyCap === undefined &&
    projectDailyCap === undefined &&
    projectDailyBudget === undefined
  ) {
    if (!(await getProject(db, projectId))) throw new ProjectNotFoundError(projectId)
    const rules = await getSponsorshipRules(db, projectId)
    return [
      `Project ${projectId}: gas sponsorship is ${describeSponsorship(rules)}${rules.isDefault ? ' (default)' : ''}`,
    ]
  }
  const rules = await setSponsorshipRules(db, {
    projectId,
    enabled,
    dailyCap,
    projectDailyCap,
    projectDailyBudget,
  })
  return [`Project ${projectId}: gas sponsorship is now ${describeSponsorship(rules)}`]
}
