// The parse cache: each distinct command is analysed once, failures included. It is bounded by
// entries and by weight (the command's characters plus an allowance per part), so a stream of
// large commands cannot pin their text and analyses in memory.
import type { ParsedCommand } from './types';

const PART_WEIGHT = 512;

const weightOf = (key: string, value: ParsedCommand): number => key.length + PART_WEIGHT * value.parts.length;

export class ParseCache {
  private readonly map = new Map<string, ParsedCommand>();
  private weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get(key: string): ParsedCommand | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: string, value: ParsedCommand): void {
    const weight = weightOf(key, value);
    if (weight > this.maxWeight / 4) return; // too big to be worth keeping: recomputed if seen again
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      this.weight -= weightOf(key, old);
    }
    while (this.map.size > 0 && (this.map.size >= this.maxEntries || this.weight + weight > this.maxWeight)) {
      const oldestKey = this.map.keys().next().value!;
      this.weight -= weightOf(oldestKey, this.map.get(oldestKey)!);
      this.map.delete(oldestKey);
    }
    this.map.set(key, value);
    this.weight += weight;
  }

  get size(): number {
    return this.map.size;
  }
}
