/**
 * A running median of a growing list, with the summed absolute deviation from it (the L1 cost of
 * describing the list by one level): two heaps, the lower half in a max-heap and the upper in a
 * min-heap, each with its sum, so every push costs O(log n) and each query O(1).
 */
class Heap {
  readonly items: number[] = [];
  sum = 0;

  /** `before(a, b)`: a belongs nearer the top than b. */
  constructor(private readonly before: (a: number, b: number) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  top(): number {
    return this.items[0]!;
  }

  push(value: number): void {
    const items = this.items;
    this.sum += value;
    let i = items.push(value) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): number {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    this.sum -= top;
    if (items.length === 0) return top;
    items[0] = last;
    for (let i = 0; ;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let next = i;
      if (left < items.length && this.before(items[left]!, items[next]!)) next = left;
      if (right < items.length && this.before(items[right]!, items[next]!)) next = right;
      if (next === i) break;
      [items[i], items[next]] = [items[next]!, items[i]!];
      i = next;
    }
    return top;
  }
}

export class RunningMedian {
  private readonly lower = new Heap((a, b) => a > b);
  private readonly upper = new Heap((a, b) => a < b);

  get count(): number {
    return this.lower.size + this.upper.size;
  }

  push(value: number): void {
    if (this.lower.size === 0 || value <= this.lower.top()) this.lower.push(value);
    else this.upper.push(value);
    // Keep the lower half equal to the upper or one larger.
    if (this.lower.size > this.upper.size + 1) this.upper.push(this.lower.pop());
    else if (this.upper.size > this.lower.size) this.lower.push(this.upper.pop());
  }

  /** The median (the mean of the two middle values for an even count); NaN when empty. */
  median(): number {
    if (this.count === 0) return Number.NaN;
    return this.lower.size > this.upper.size
      ? this.lower.top()
      : (this.lower.top() + this.upper.top()) / 2;
  }

  /** Σ |value − median| over the values pushed so far. */
  absoluteDeviation(): number {
    if (this.count === 0) return 0;
    const m = this.median();
    return this.upper.sum - this.upper.size * m + (this.lower.size * m - this.lower.sum);
  }
}
