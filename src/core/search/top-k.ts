/**
 * Top-k selection of scored documents with a deterministic order.
 * @module
 */

/** Keeps the `capacity` best (score desc, doc id asc) of the offered documents. */
export class TopK {
  private readonly docs: number[] = [];
  private readonly scores: number[] = [];
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Considers one document; keeps it if it ranks among the best `capacity` so far. */
  offer(doc: number, score: number): void {
    if (this.docs.length < this.capacity) {
      this.docs.push(doc);
      this.scores.push(score);
      this.siftUp(this.docs.length - 1);
    } else if (score > this.scores[0]! || (score === this.scores[0] && doc < this.docs[0]!)) {
      // Inline comparison with the worst kept document: most offers stop here.
      this.docs[0] = doc;
      this.scores[0] = score;
      this.siftDown(0);
    }
  }

  /** The kept documents, best first (higher score, then lower doc id). */
  sorted(): { doc: number; score: number }[] {
    return this.docs.map((doc, i) => ({ doc, score: this.scores[i]! })).sort((x, y) => y.score - x.score || x.doc - y.doc);
  }

  /** Whether (doc, score) ranks above the heap entry at `i`. */
  private better(doc: number, score: number, i: number): boolean {
    const s = this.scores[i]!;
    return score > s || (score === s && doc < this.docs[i]!);
  }

  // Min-heap on rank: the root is the worst kept document.
  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.better(this.docs[parent]!, this.scores[parent]!, i)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const n = this.docs.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < n && !this.better(this.docs[l]!, this.scores[l]!, worst)) worst = l;
      if (r < n && !this.better(this.docs[r]!, this.scores[r]!, worst)) worst = r;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }

  private swap(i: number, j: number): void {
    const doc = this.docs[i]!;
    const score = this.scores[i]!;
    this.docs[i] = this.docs[j]!;
    this.scores[i] = this.scores[j]!;
    this.docs[j] = doc;
    this.scores[j] = score;
  }
}
