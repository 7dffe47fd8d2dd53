/** Basis points in a whole: splits sum to exactly this. */
export const WHOLE_BPS = 10_000

export interface Share {
  creatorId: string
  shareBps: number
}

export interface Allocation {
  creatorId: string
  /** Micro-units. */
  amount: bigint
}

/** One share per creator: a creator named twice (say composer and lyricist) gets the sum. */
export function mergeShares(shares: readonly Share[]): Share[] {
  const merged = new Map<string, number>()
  for (const share of shares) merged.set(share.creatorId, (merged.get(share.creatorId) ?? 0) + share.shareBps)
  return [...merged].map(([creatorId, shareBps]) => ({ creatorId, shareBps }))
}

/**
 * Splits `amount` (micro-units) by basis points with the largest-remainder method: each
 * creator gets the floor of their exact share, and the micro-units left over go one each
 * to the largest remainders (ties: larger share first, then creatorId ascending). The
 * result sums exactly to `amount`. A negative amount is split as its magnitude and
 * negated, so a reversal is the exact mirror of the entry it reverses.
 */
export function allocate(amount: bigint, shares: readonly Share[]): Allocation[] {
  const merged = mergeShares(shares)
  const total = merged.reduce((sum, share) => sum + share.shareBps, 0)
  if (
    merged.length === 0 ||
    total !== WHOLE_BPS ||
    merged.some((share) => !Number.isInteger(share.shareBps) || share.shareBps <= 0)
  ) {
    throw new Error('allocate needs positive integer shares summing to 10000 basis points')
  }
  const negative = amount < 0n
  const magnitude = negative ? -amount : amount
  const whole = BigInt(WHOLE_BPS)
  const parts = merged.map((share) => {
    const product = magnitude * BigInt(share.shareBps)
    return { share, floor: product / whole, remainder: product % whole }
  })
  let leftover = magnitude - parts.reduce((sum, part) => sum + part.floor, 0n)
  const order = [...parts].sort((a, b) => {
    if (a.remainder !== b.remainder) return a.remainder > b.remainder ? -1 : 1
    if (a.share.shareBps !== b.share.shareBps) return b.share.shareBps - a.share.shareBps
    return a.share.creatorId < b.share.creatorId ? -1 : a.share.creatorId > b.share.creatorId ? 1 : 0
  })
  const bonus = new Set<Share>()
  for (const part of order) {
    if (leftover === 0n) break
    bonus.add(part.share)
    leftover -= 1n
  }
  return parts.map((part) => {
    const value = part.floor + (bonus.has(part.share) ? 1n : 0n)
    return { creatorId: part.share.creatorId, amount: negative ? -value : value }
  })
}
