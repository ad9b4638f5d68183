/**
 * A bounded heap with the worst kept candidate on top. The candidates are in id order, and taken from the last (the highest id) first a
 * tie never displaces the worst kept. The heap lives in module arrays reused by every query, and is sifted by a plain
 * function rather than closures made per call (with them the heap cost twice as much: 29 → 13 µs for 600 candidates).
 */
let scores = new Float64Array(64)
let keys = new Float64Array(64)
/** The candidates' positions. */
let positions = new Int32Array(64)

/** Whether heap item `a` ranks below item `b`. */
function worse(a: number, b: number): boolean {
  const left = scores[a]!
  const right = scores[b]!
  return left < right || (left === right && keys[a]! < keys[b]!)
}

function siftDown(from: number, size: number): void {
  let at = from
  for (;;) {
    const left = 2 * at + 1
    if (left >= size) return
    const right = left + 1
    const child = right < size && worse(right, left) ? right : left
    if (!worse(child, at)) return
    const score = scores[at]!
    const key = keys[at]!
    const position = positions[at]!
    scores[at] = scores[child]!
    keys[at] = keys[child]!
    positions[at] = positions[child]!
    scores[child] = score
    keys[child] = key
    positions[child] = position
    at = child
  }
}

/** Score buckets of the pre-selection, and the candidates it keeps (reused by every query). */
const BUCKETS = 256
const histogram = new Int32Array(BUCKETS)
let keptScores = new Float64Array(256)
let keptIds = new Int32Array(256)
let keptPositions = new Int32Array(256)
let sureScores = new Float64Array(64)
let sureIds = new Int32Array(64)
let surePositions = new Int32Array(64)

/**
 * The best `limit` of `count` candidates, (score desc, id desc), as their positions, best first. With many more
 * candidates than places, a histogram of their scores first finds the lowest score bucket the best `limit` reach, and
 * only the candidates from that bucket up (equal scores share a bucket) go through the heap: most of a heap's work was
 * candidates that displaced a kept one only to be displaced again (~85 of 600 for 41 places).
 */
export function topCandidates(candidateScores: Float64Array, candidateIds: Int32Array, count: number, limit: number): number[] {
  if (count <= 4 * limit) return heapTop(candidateScores, candidateIds, count, limit)
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < count; i++) {
    const score = candidateScores[i]!
    if (score < min) min = score
    if (score > max) max = score
  }
  if (!(max > min) || !Number.isFinite(max - min)) return heapTop(candidateScores, candidateIds, count, limit)
  const scale = (BUCKETS - 1) / (max - min)
  histogram.fill(0)
  for (let i = 0; i < count; i++) histogram[((candidateScores[i]! - min) * scale) | 0]!++
  let lowest = BUCKETS - 1
  let reached = histogram[lowest]!
  while (reached < limit) reached += histogram[--lowest]!
  // Candidates above the lowest bucket are among the best for sure (fewer than `limit`); of those in it, only the best
  // of the places left go through a heap. Two-word queries share a few distinct scores, so that bucket holds mostly
  // ties, which a heap takes without a displacement (~250 candidates for 41 places left a heap ~5 µs of work).
  const sure = reached - histogram[lowest]!
  if (keptScores.length < count) {
    keptScores = new Float64Array(count)
    keptIds = new Int32Array(count)
    keptPositions = new Int32Array(count)
  }
  if (sureScores.length < sure) {
    sureScores = new Float64Array(limit)
    sureIds = new Int32Array(limit)
    surePositions = new Int32Array(limit)
  }
  let kept = 0
  let taken = 0
  for (let i = 0; i < count; i++) {
    const bucket = ((candidateScores[i]! - min) * scale) | 0
    if (bucket < lowest) continue
    if (bucket > lowest) {
      sureScores[taken] = candidateScores[i]!
      sureIds[taken] = candidateIds[i]!
      surePositions[taken] = i
      taken++
      continue
    }
    keptScores[kept] = candidateScores[i]!
    keptIds[kept] = candidateIds[i]!
    keptPositions[kept] = i
    kept++
  }
  // Every sure candidate ranks above every one of the lowest bucket (buckets grow with the score).
  const best = heapTop(sureScores, sureIds, taken, taken)
  for (let i = 0; i < best.length; i++) best[i] = surePositions[best[i]!]!
  for (const at of heapTop(keptScores, keptIds, kept, limit - taken)) best.push(keptPositions[at]!)
  return best
}

function heapTop(candidateScores: Float64Array, candidateIds: Int32Array, count: number, limit: number): number[] {
  const size = Math.min(count, limit)
  if (scores.length < size) {
    scores = new Float64Array(size)
    keys = new Float64Array(size)
    positions = new Int32Array(size)
  }
  let next = count - 1
  for (let kept = 0; kept < size; kept++, next--) {
    scores[kept] = candidateScores[next]!
    keys[kept] = candidateIds[next]!
    positions[kept] = next
  }
  for (let at = (size >> 1) - 1; at >= 0; at--) siftDown(at, size)
  let worstScore = scores[0]!
  let worstId = keys[0]!
  for (; next >= 0; next--) {
    const score = candidateScores[next]!
    if (score < worstScore || (score === worstScore && candidateIds[next]! < worstId)) continue
    scores[0] = score
    keys[0] = candidateIds[next]!
    positions[0] = next
    siftDown(0, size)
    worstScore = scores[0]!
    worstId = keys[0]!
  }
  // Best first: the worst kept leaves the heap first and goes last (cheaper than a sort with a comparator).
  const best = new Array<number>(size)
  for (let heapSize = size; heapSize > 0;) {
    best[heapSize - 1] = positions[0]!
    heapSize--
    scores[0] = scores[heapSize]!
    keys[0] = keys[heapSize]!
    positions[0] = positions[heapSize]!
    siftDown(0, heapSize)
  }
  return best
}
