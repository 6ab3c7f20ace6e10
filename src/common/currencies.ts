/**
 * The supported currencies and the number of minor units in one major unit: money fields are
 * integer minor units (docs/API.md, Money). The yen has no minor unit.
 */
export const CURRENCY_BASE_MULTIPLIERS = {
  gbp: 100,
  usd: 100,
  eur: 100,
  sgd: 100,
  aud: 100,
  brl: 100,
  cad: 100,
  czk: 100,
  dkk: 100,
  hkd: 100,
  huf: 100,
  ils: 100,
  jpy: 1,
  myr: 100,
  mxn: 100,
  nok: 100,
  nzd: 100,
  php: 100,
  pln: 100,
  rub: 100,
  sek: 100,
  chf: 100,
  twd: 100,
  thb: 100,
  try: 100,
} as const;

export type CurrencyCode = keyof typeof CURRENCY_BASE_MULTIPLIERS;
export const CURRENCY_CODES = Object.keys(
  CURRENCY_BASE_MULTIPLIERS,
) as CurrencyCode[];
