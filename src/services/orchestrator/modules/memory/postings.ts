/**
 * The postings of one term and the merge that scores a query from them.
 *
 * A posting is four numbers side by side in a typed array: the entry's id, its slot in the index, the weighted term
 * frequency f(q, D) and the entry's length in tokens (as typed arrays, the ~6 million numbers of 50,000 entries are
 * nothing a full collection walks). A list is kept in id order, so a query's lists are merged in one forward pass over
 * each: scoring by adding into an array indexed by slot read one random place of a megabyte per match, a cache miss
 * each once a response had passed through the caches — most of a ranking's time (~60 of 90 µs for 600 matches).
 */

/** The largest entry id (in magnitude) a posting holds. */
export const MAX_POSTING_ID = 0x7fffffff
const STRIDE = 4

export class Postings {
  // Most terms are in a few entries (ids, names): up to 64 bytes, V8 keeps a typed array's numbers inside the heap
  // object, with no separate buffer for a collection to track.
  data = new Int32Array(16)
  /** Numbers used (STRIDE per posting). */
  length = 0
  /**
   * Numbers at the front that are in id order. An entry rewritten (its id lower than the last) or a build that reads
   * entries out of id order appends behind them; the next query that needs the list sorts that tail in.
   */
  sortedLength = 0

  get count(): number {
    return this.length / STRIDE
  }

  push(id: number, slot: number, f: number, tokenCount: number): void {
    if (this.length + STRIDE > this.data.length) {
      // By half (a multiple of STRIDE): doubling left a third of 1.7 million postings' room unused (+19 MB measured).
      const grown = new Int32Array(this.data.length + (((this.data.length >> 1) + STRIDE - 1) & ~(STRIDE - 1)))
      grown.set(this.data)
      this.data = grown
    }
    const at = this.length
    this.data[at] = id
    this.data[at + 1] = slot
    this.data[at + 2] = f
    this.data[at + 3] = tokenCount
    this.length += STRIDE
    if (this.sortedLength === at && (at === 0 || this.data[at - STRIDE]! < id)) this.sortedLength = this.length
  }

  /** Takes an entry's posting out (an entry is in every list its term run names: anything else is a broken index). */
  remove(id: number): void {
    const data = this.data
    let low = 0
    let high = this.sortedLength / STRIDE - 1
    while (low <= high) {
      const middle = (low + high) >> 1
      const at = middle * STRIDE
      if (data[at] === id) {
        data.copyWithin(at, at + STRIDE, this.length)
        this.length -= STRIDE
        this.sortedLength -= STRIDE
        return
      }
      if (data[at]! < id) low = middle + 1
      else high = middle - 1
    }
    for (let at = this.sortedLength; at < this.length; at += STRIDE) {
      if (data[at] !== id) continue
      // The tail has no order: the last posting takes the place.
      data.copyWithin(at, this.length - STRIDE, this.length)
      this.length -= STRIDE
      return
    }
    throw new Error(`memory term index: entry ${id} is missing from a term's postings`)
  }

  /** Sorts the unordered tail and merges it into the sorted front. */
  sort(): void {
    if (this.sortedLength === this.length) return
    const data = this.data
    const tail: number[] = []
    for (let at = this.sortedLength; at < this.length; at += STRIDE) tail.push(at)
    tail.sort((a, b) => data[a]! - data[b]!)
    const merged = new Int32Array(this.data.length)
    let front = 0
    let next = 0
    let out = 0
    const take = (at: number) => {
      merged.set(data.subarray(at, at + STRIDE), out)
      out += STRIDE
    }
    while (front < this.sortedLength || next < tail.length) {
      if (next >= tail.length || (front < this.sortedLength && data[front]! < data[tail[next]!]!)) {
        take(front)
        front += STRIDE
      } else take(tail[next++]!)
    }
    this.data = merged
    this.sortedLength = this.length
  }
}

/**
 * The entries a query matched so far, in id order: id, slot, score and how many of its terms matched, each in a typed
 * array. Two sets of arrays take turns as source and target of each merge; they are reused by every query.
 */
export class Matches {
  count = 0
  ids = new Int32Array(1024)
  slots = new Int32Array(1024)
  scores = new Float64Array(1024)
  matched = new Int32Array(1024)
  #ids = new Int32Array(1024)
  #slots = new Int32Array(1024)
  #scores = new Float64Array(1024)
  #matched = new Int32Array(1024)

  /** Room for `entries` matches (at most every entry of the index). */
  reserve(entries: number): void {
    if (this.ids.length >= entries) return
    const size = Math.max(entries, 2 * this.ids.length)
    this.ids = new Int32Array(size)
    this.slots = new Int32Array(size)
    this.scores = new Float64Array(size)
    this.matched = new Int32Array(size)
    this.#ids = new Int32Array(size)
    this.#slots = new Int32Array(size)
    this.#scores = new Float64Array(size)
    this.#matched = new Int32Array(size)
  }

  clear(): void {
    this.count = 0
  }

  /**
   * Adds a term's bm25 share to every entry of its (sorted) list: `score(f, tokens)` of each posting is added to the
   * entry's score so far, in the order the terms are added, so the sums are the ones adding per slot gave.
   */
  add(list: Postings, idf: number, k1: number, b: number, averageLength: number): void {
    const data = list.data
    const length = list.length
    const ids = this.ids
    const slots = this.slots
    const scores = this.scores
    const matched = this.matched
    const outIds = this.#ids
    const outSlots = this.#slots
    const outScores = this.#scores
    const outMatched = this.#matched
    const count = this.count
    let i = 0
    let j = 0
    let out = 0
    while (j < length) {
      const id = data[j]!
      while (i < count && ids[i]! < id) {
        outIds[out] = ids[i]!
        outSlots[out] = slots[i]!
        outScores[out] = scores[i]!
        outMatched[out] = matched[i]!
        i++
        out++
      }
      const f = data[j + 2]!
      const share = (idf * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * data[j + 3]!) / averageLength))
      outIds[out] = id
      outSlots[out] = data[j + 1]!
      if (i < count && ids[i] === id) {
        outScores[out] = scores[i]! + share
        outMatched[out] = matched[i]! + 1
        i++
      } else {
        outScores[out] = share
        outMatched[out] = 1
      }
      out++
      j += STRIDE
    }
    for (; i < count; i++, out++) {
      outIds[out] = ids[i]!
      outSlots[out] = slots[i]!
      outScores[out] = scores[i]!
      outMatched[out] = matched[i]!
    }
    this.#ids = ids
    this.#slots = slots
    this.#scores = scores
    this.#matched = matched
    this.ids = outIds
    this.slots = outSlots
    this.scores = outScores
    this.matched = outMatched
    this.count = out
  }
}
