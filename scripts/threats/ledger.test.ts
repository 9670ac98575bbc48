import { expect, test } from 'vitest'
import { createTestApp } from '../../apps/api/test/testApp.ts'
import {
  codeSurfaces,
  missingThreats,
  namedIn,
  type SurfaceGroup,
  threatsSection,
} from './ledger.ts'

/** Every HTTP route of the API, as `METHOD /path` (Hono's `:param` form). */
async function apiRoutes(): Promise<SurfaceGroup> {
  const t = await createTestApp()
  try {
    const names = new Set<string>()
    for (const route of t.app.routes)
      if (route.method !== 'ALL' && !route.path.includes('*'))
        names.add(`${route.method} ${route.path}`)
    return { kind: 'API route', readme: 'apps/api/README.md', names: [...names] }
  } finally {
    await t.close()
  }
}

test('every endpoint, RPC method, message and contract function has a threat entry in its README', async () => {
  const groups = [await apiRoutes(), ...codeSurfaces()]
  // The ledger reads something real: each kind of surface is found in the code.
  for (const group of groups) expect(group.names.length, group.kind).toBeGreaterThan(0)
  const missing = missingThreats(groups)
  expect(
    missing.map(
      ({ kind, readme, missing }) =>
        `${readme} "## Threats" names no ${kind}: ${missing.map((m) => `\`${m}\``).join(', ')}`,
    ),
    'Answer shared/THREATS.md for each in the README (write the name in backticks)',
  ).toEqual([])
})

test('the ledger reads entries only: Threats subsection headings and first table cells, {param} as :param', () => {
  const readme = [
    '# App',
    '### Before: `GET /a`',
    '## Threats',
    '`GET /d` is mentioned in a sentence, which is no entry.',
    '### Reads: `GET /b/{id}`',
    '| `GET /e` | who may call `GET /f` |',
    '## Later',
    '### After: `GET /c`',
  ].join('\n')
  expect([...namedIn(threatsSection(readme))].sort()).toEqual(['GET /b/:id', 'GET /e'])
  const group = { kind: 'route', readme: 'x', names: ['GET /a', 'GET /b/:id', 'GET /c', 'GET /d'] }
  expect(missingThreats([group], () => readme)).toEqual([
    { kind: 'route', readme: 'x', missing: ['GET /a', 'GET /c', 'GET /d'] },
  ])
})
