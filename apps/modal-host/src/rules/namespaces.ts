/** How each chain namespace is named to users. */
export const NAMESPACE_LABELS: Readonly<Record<string, string>> = {
  eip155: 'EVM',
  solana: 'Solana',
  bip122: 'Bitcoin',
  polkadot: 'Polkadot',
  cosmos: 'Cosmos',
}
