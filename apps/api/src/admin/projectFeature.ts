import type { Db } from '../db/Db.js'
import {
  OnrampProvider,
  type ProjectFeatures,
  resolveRemoteFeatures,
  SocialProvider,
  SwapProvider,
} from '../projects/features.js'
import { getProject } from '../projects/getProject.js'
import { ProjectNotFoundError } from '../projects/Project.js'
import { setProjectFeatures } from '../projects/setProjectFeatures.js'

/** The switches `project feature` sets: the remote features (spec §9) and analytics. */
export const FEATURE_NAMES = [
  'email',
  'socials',
  'activity',
  'multiWallet',
  'swaps',
  'onramp',
  'analytics',
] as const
/** A switch `project feature` sets. */
export type FeatureName = (typeof FEATURE_NAMES)[number]

const LISTS = { socials: SocialProvider, swaps: SwapProvider, onramp: OnrampProvider } as const

/** One change: a stored value, or `undefined` to go back to the default. */
export type FeatureChange = { name: FeatureName; value: ProjectFeatures[FeatureName] | undefined }

/**
 * Reads `<feature> <setting>`: `on`, `off` or `default` for every switch, or a comma list of
 * providers for socials, swaps and onramp (`on` is then the default list). Answers the change,
 * or an error sentence.
 *
 * @example
 * parseFeatureChange('email', 'off') // { change: { name: 'email', value: false } }
 * parseFeatureChange('socials', 'google,github') // { change: { name: 'socials', value: ['google', 'github'] } }
 */
export function parseFeatureChange(
  name: string,
  setting: string,
): { change: FeatureChange } | { error: string } {
  if (!(FEATURE_NAMES as readonly string[]).includes(name))
    return { error: `Unknown feature "${name}": use ${FEATURE_NAMES.join(', ')}` }
  const feature = name as FeatureName
  const list = LISTS[feature as keyof typeof LISTS]
  if (setting === 'default') return { change: { name: feature, value: undefined } }
  if (setting === 'off') return { change: { name: feature, value: false } }
  if (setting === 'on') return { change: { name: feature, value: list ? undefined : true } }
  if (!list) return { error: `Unknown setting "${setting}" for ${feature}: use on, off or default` }
  const providers = setting
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const unknown = providers.filter((p) => !list.safeParse(p).success)
  if (!providers.length || unknown.length)
    return {
      error: `Unknown ${feature} setting "${setting}": use on, off, default or a comma list of ${list.options.join(', ')}`,
    }
  return { change: { name: feature, value: [...new Set(providers)] as never } }
}

function show(value: unknown): string {
  if (value === true) return 'on'
  if (value === false) return 'off'
  return Array.isArray(value) ? value.join(', ') : String(value)
}

/** Parameters of {@link projectFeature}. */
export type ProjectFeatureParameters = { projectId: string; change?: FeatureChange | undefined }

/**
 * Applies `change` to a project's stored features (keeping the others) and answers the lines to
 * print: the change, then every switch with its value and whether the project set it. A running
 * API serves the new value within its project cache's life (1 s), without a restart.
 *
 * @example
 * const lines = await projectFeature(db, { projectId: 'porthole-demo', change: { name: 'email', value: false } })
 */
export async function projectFeature(
  db: Db,
  { projectId, change }: ProjectFeatureParameters,
): Promise<string[]> {
  const project = await getProject(db, projectId)
  if (!project) throw new ProjectNotFoundError(projectId)
  let features = project.features
  const lines: string[] = []
  if (change) {
    const { [change.name]: _previous, ...others } = features
    features = await setProjectFeatures(db, {
      projectId,
      features: change.value === undefined ? others : { ...others, [change.name]: change.value },
    })
  }
  const effective: Record<FeatureName, unknown> = {
    ...resolveRemoteFeatures(features),
    analytics: features.analytics ?? true,
  }
  if (change)
    lines.push(
      `Project ${projectId}: ${change.name} is now ${show(effective[change.name])}${change.value === undefined ? ' (default)' : ''}`,
    )
  const width = Math.max(...FEATURE_NAMES.map((n) => n.length))
  for (const name of FEATURE_NAMES)
    lines.push(
      `${name.padEnd(width)}  ${show(effective[name])}${features[name] === undefined ? '  (default)' : ''}`,
    )
  return lines
}
