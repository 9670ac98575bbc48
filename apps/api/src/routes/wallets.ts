import type { Hono, MiddlewareHandler } from 'hono'
import { z } from 'zod'
import { BadgeType, CaipNetworkId, WalletId } from '../catalogue/catalogue.js'
import { queryWallets } from '../catalogue/queryWallets.js'
import type { DbExecutor } from '../db/Db.js'
import type { AppEnv } from '../http/AppEnv.js'
import { parseInput } from '../http/parseInput.js'

/** A comma-separated list, trimmed, de-duplicated, empty items dropped. */
const commaList = (item: z.ZodType<string, string>, max: number) =>
  z
    .string()
    .max(20_000)
    .optional()
    .transform((text) => [
      ...new Set(
        (text ?? '')
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(item).max(max))

/** Query of `GET /getWallets` (spec §9: list page 40, search page 100). */
export const WalletsQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  entries: z.coerce.number().int().min(1).max(100).default(40),
  include: commaList(WalletId, 100),
  exclude: commaList(WalletId, 100),
  chains: commaList(CaipNetworkId, 50),
  search: z.string().max(100).optional(),
  badge_type: BadgeType.optional(),
})

/**
 * `GET /getWallets?page&entries&include&exclude&chains&search&badge_type` →
 * `{ data: Wallet[], count }`: the catalogue by popularity, `count` matching before paging.
 *
 * @example
 * walletRoutes(app, guard, { db, publicUrl: 'http://127.0.0.1:4300' })
 */
export function walletRoutes(
  app: Hono<AppEnv>,
  guard: readonly MiddlewareHandler<AppEnv>[],
  { db, publicUrl }: { db: DbExecutor; publicUrl: string },
): void {
  app.use('/getWallets', ...guard)
  app.get('/getWallets', async (c) => {
    const query = parseInput(WalletsQuery, c.req.query())
    // Image URLs carry the caller's project and sdk params, as every call does.
    const params = new URLSearchParams({ projectId: c.var.project.id })
    if (c.var.sdk.type) params.set('st', c.var.sdk.type)
    if (c.var.sdk.version) params.set('sv', c.var.sdk.version)
    const suffix = `?${params}`
    const result = await queryWallets(db, {
      page: query.page,
      entries: query.entries,
      include: query.include,
      exclude: query.exclude,
      chains: query.chains,
      ...(query.search === undefined ? {} : { search: query.search }),
      ...(query.badge_type === undefined ? {} : { badgeType: query.badge_type }),
      imageUrl: (imageId) => `${publicUrl}/getWalletImage/${encodeURIComponent(imageId)}${suffix}`,
    })
    return c.json(result)
  })
}
