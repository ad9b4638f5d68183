/** Small numeric helpers shared by the insight views. */

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals
  return Math.round(value * factor) / factor
}

/** Micro-dollars (how money is stored) to dollars, to the micro-dollar. */
export function microToUsd(micro: number): number {
  return roundTo(micro / 1_000_000, 6)
}
