import type { IncomingMessage, ServerResponse } from 'node:http'
import { clientIdOf, SOCIAL_SCOPES } from '../providers.ts'
import { subjectOf } from '../subject.ts'
import type { Issuer } from './issuer.ts'
import {
  defaultLoginValues,
  EMAIL,
  errorPage,
  type LoginValues,
  loginPage,
  MAX_LENGTH,
  type Page,
} from './pages.ts'

type Interaction = Awaited<ReturnType<Issuer['oidc']['interactionDetails']>>

const MAX_BODY = 16 * 1024

/**
 * Serves `<issuer>/interaction/<uid>[/abort]`: the login page (GET), its submission (POST)
 * and Cancel (POST …/abort). `rest` is the path after `/interaction/`.
 */
export async function handleInteraction(
  issuer: Issuer,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
): Promise<void> {
  const [uid, action, ...extra] = rest.split('/')
  const route =
    req.method === 'GET' && action === undefined
      ? 'show'
      : req.method === 'POST' && action === undefined
        ? 'submit'
        : req.method === 'POST' && action === 'abort' && extra.length === 0
          ? 'abort'
          : undefined
  if (!uid || !route) return send(res, 404, errorPage({ error: 'not_found' }))

  let interaction: Interaction
  try {
    interaction = await issuer.oidc.interactionDetails(req, res)
  } catch {
    return send(
      res,
      400,
      errorPage({
        error: 'interaction_expired',
        description: 'This sign-in is no longer running; start it again from the app.',
      }),
    )
  }
  if (interaction.uid !== uid) return send(res, 400, errorPage({ error: 'interaction_mismatch' }))

  if (route === 'abort')
    return issuer.oidc.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'End-User cancelled the sign-in' },
      { mergeWithLastSubmission: false },
    )

  if (interaction.prompt.name === 'consent') return grantConsent(issuer, req, res, interaction)
  if (interaction.prompt.name !== 'login')
    return send(res, 501, errorPage({ error: 'unsupported_prompt' }))

  if (route === 'show')
    return send(
      res,
      200,
      renderLogin(
        issuer,
        interaction,
        defaultLoginValues(issuer.name, interaction.params.login_hint),
      ),
    )

  const form = new URLSearchParams(await readBody(req))
  const values: LoginValues = {
    email: (form.get('email') ?? '').trim(),
    name: (form.get('name') ?? '').trim(),
    username: (form.get('username') ?? '').trim(),
  }
  const problem = validate(values)
  if (problem) return send(res, 400, renderLogin(issuer, interaction, values, problem))

  const localPart = values.email.slice(0, values.email.lastIndexOf('@'))
  const accountId = subjectOf(issuer.name, values.email)
  issuer.accounts.set(accountId, {
    email: values.email,
    name: values.name || localPart,
    username: values.username || localPart,
  })

  // A fresh session for every sign-in: drop the one an earlier sign-in in this browser left,
  // so switching accounts needs no logout step.
  if (interaction.session) {
    const previous = await issuer.oidc.Session.findByUid(interaction.session.uid)
    await previous?.destroy()
    interaction.session = undefined
    await interaction.persist()
  }

  // First-party dev clients: consent is granted with the login, so there is no second page.
  const grant = new issuer.oidc.Grant({ accountId, clientId: clientIdOf(issuer.name) })
  const requested = String(interaction.params.scope ?? '').split(' ')
  grant.addOIDCScope(SOCIAL_SCOPES.filter((scope) => requested.includes(scope)))
  const grantId = await grant.save()
  await issuer.oidc.interactionFinished(
    req,
    res,
    { login: { accountId }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  )
}

/** Grants whatever a consent prompt is missing (reached only for unusual requests). */
async function grantConsent(
  issuer: Issuer,
  req: IncomingMessage,
  res: ServerResponse,
  interaction: Interaction,
): Promise<void> {
  const { accountId } = interaction.session ?? {}
  if (!accountId) return send(res, 400, errorPage({ error: 'login_required' }))
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[]
    missingOIDCClaims?: string[]
    missingResourceScopes?: Record<string, string[]>
  }
  const grant = interaction.grantId
    ? await issuer.oidc.Grant.find(interaction.grantId)
    : new issuer.oidc.Grant({ accountId, clientId: clientIdOf(issuer.name) })
  if (!grant) return send(res, 400, errorPage({ error: 'grant_not_found' }))
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope)
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims)
  for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {}))
    grant.addResourceScope(resource, scopes)
  const grantId = await grant.save()
  await issuer.oidc.interactionFinished(req, res, { consent: { grantId } })
}

function renderLogin(
  issuer: Issuer,
  interaction: Interaction,
  values: LoginValues,
  error?: string,
): Page {
  const action = `${issuer.path}/interaction/${interaction.uid}`
  return loginPage({
    provider: issuer.name,
    action,
    abortAction: `${action}/abort`,
    clientId: clientIdOf(issuer.name),
    redirectOrigins: [
      ...issuer.redirectUris.map((uri) => new URL(uri).origin),
      ...issuer.forwardOrigins,
    ],
    values,
    ...(error === undefined ? {} : { error }),
  })
}

function validate(values: LoginValues): string | undefined {
  if (!values.email) return 'Enter an e-mail address.'
  if (!EMAIL.test(values.email) || values.email.length > MAX_LENGTH.email)
    return 'Enter a valid e-mail address, like ada@example.com.'
  if (values.name.length > MAX_LENGTH.name)
    return `Keep the display name under ${MAX_LENGTH.name} characters.`
  if (values.username.length > MAX_LENGTH.username)
    return `Keep the username under ${MAX_LENGTH.username} characters.`
  return undefined
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of req) {
    body += chunk
    if (body.length > MAX_BODY) throw new Error('Request body too large')
  }
  return body
}

/** Writes a page. */
export function send(res: ServerResponse, status: number, page: Page): void {
  res.writeHead(status, page.headers)
  res.end(page.html)
}
