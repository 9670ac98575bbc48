/** Wallet catalogue: the curated list behind `GET /getWallets`. */
export {
  BadgeType,
  CaipNetworkId,
  CatalogueWallet,
  ImageId,
  InjectedId,
  loadCatalogue,
  WalletId,
} from './catalogue.js'
export {
  type QueryWalletsParameters,
  type QueryWalletsReturnType,
  queryWallets,
  type Wallet,
  type WalletInjected,
} from './queryWallets.js'
export {
  type SeedWalletsParameters,
  type SeedWalletsReturnType,
  seedWallets,
} from './seedWallets.js'
