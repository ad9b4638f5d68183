/** Quantities of one order line, as stored. */
export interface LineQuantities {
  quantity: number
  shipped_quantity: number
  cancelled_quantity: number
  backorder_quantity: number
  returned_quantity: number
}

export const openQuantity = (l: LineQuantities): number => l.quantity - l.shipped_quantity - l.cancelled_quantity

/**
 * A line's status from its quantities: open units make it NEW (not yet acknowledged),
 * IN_PROGRESS, or IN_BACKORDER (some open units backordered); with nothing open it is CANCELED
 * (nothing shipped), RETURNED (everything shipped came back) or SHIPPED.
 */
export function lineStatus(line: LineQuantities, acknowledged: boolean): string {
  if (openQuantity(line) > 0) return line.backorder_quantity > 0 ? 'IN_BACKORDER' : acknowledged ? 'IN_PROGRESS' : 'NEW'
  if (line.shipped_quantity === 0) return 'CANCELED'
  return line.returned_quantity >= line.shipped_quantity ? 'RETURNED' : 'SHIPPED'
}

const OPEN = new Set(['NEW', 'IN_PROGRESS', 'IN_BACKORDER'])

/**
 * The order's status from its lines: one shared status is the order's; with nothing open, mixed
 * closed lines make it CLOSED. With open lines: all open lines backordered → IN_BACKORDER; any
 * line already (partly) shipped or cancelled, or open lines in different states → IN_COMBI.
 */
export function orderStatus(lines: (LineQuantities & { status: string })[]): string {
  const statuses = new Set(lines.map((l) => l.status))
  const open = lines.filter((l) => OPEN.has(l.status))
  if (open.length === 0) return statuses.size === 1 ? (lines[0]?.status ?? 'CLOSED') : 'CLOSED'
  const openStatuses = new Set(open.map((l) => l.status))
  if (openStatuses.size === 1 && openStatuses.has('IN_BACKORDER')) return 'IN_BACKORDER'
  const moved = lines.some((l) => l.shipped_quantity > 0 || l.cancelled_quantity > 0)
  if (moved || openStatuses.size > 1) return 'IN_COMBI'
  return open[0]?.status ?? 'IN_PROGRESS'
}

/** Orders that still take shipments, cancellations and backorders. */
export const isOpenOrderStatus = (status: string): boolean => OPEN.has(status) || status === 'IN_COMBI'
