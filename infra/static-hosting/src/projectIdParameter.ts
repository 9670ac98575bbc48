/**
 * The `projectId` of a framed document's URL, read strictly. The apps read it with
 * URLSearchParams (exact name, percent-decoded, the first one); other readers (nginx's
 * `$arg_projectId`: any letter case, undecoded; PHP and qs: `projectId[]`) read other
 * parameters. A query on which two readers could disagree is refused, so the document's CSP is
 * always the one of the project the app runs (nginx/porthole.conf applies the same rule).
 */
import { PROJECT_ID } from './projectOrigins.ts'

/** What a document's query says about its project. */
export type ProjectIdParameter =
  /** No projectId at all (the modal only shows 'Project ID Not Configured'). */
  | { status: 'absent' }
  | { status: 'valid'; projectId: string }
  /** Duplicate, case-variant, encoded or array-style name, or an empty or malformed id. */
  | { status: 'invalid' }

/** A name that decodes to `projectid…` in any letter case, each letter possibly `%XX`. */
const PROJECT_ID_LIKE =
  /^(?:p|%[57]0)(?:r|%[57]2)(?:o|%[46]f)(?:j|%[46]a)(?:e|%[46]5)(?:c|%[46]3)(?:t|%[57]4)(?:i|%[46]9)(?:d|%[46]4)/i

/**
 * Reads the raw query string (with or without `?`): `valid` only for one parameter spelled
 * exactly `projectId=` holding a project id (1–64 letters, digits, `-`, `_`, raw, not starting
 * with `-`/`_`) and no other parameter whose name looks like it.
 *
 * @example
 * projectIdParameter('?projectId=shop&origin=x') // { status: 'valid', projectId: 'shop' }
 * projectIdParameter('?projectid=evil&projectId=shop') // { status: 'invalid' }
 * projectIdParameter('?project%49d=shop') // { status: 'invalid' }
 * projectIdParameter('') // { status: 'absent' }
 */
export function projectIdParameter(search: string): ProjectIdParameter {
  const query = search.startsWith('?') ? search.slice(1) : search
  let projectId: string | undefined
  for (const part of query.split('&')) {
    if (!PROJECT_ID_LIKE.test(part)) continue
    if (projectId !== undefined || !part.startsWith('projectId=')) return { status: 'invalid' }
    projectId = part.slice('projectId='.length)
    if (!PROJECT_ID.test(projectId)) return { status: 'invalid' }
  }
  return projectId === undefined ? { status: 'absent' } : { status: 'valid', projectId }
}
