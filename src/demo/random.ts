import { randomBytes } from 'node:crypto';
import { itemAt } from '../arrays.ts';

/**
 * A small, fast, seedable PRNG (sfc32: 128 bits of state, so independent
 * streams do not overlap in practice) with the sampling helpers the demo data
 * generator needs.
 */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: string | number) {
    // Spread the seed over the four words with a string hash (cyrb128).
    const text = String(seed);
    let h1 = 1779033703;
    let h2 = 3144134277;
    let h3 = 1013904242;
    let h4 = 2773480762;
    for (let i = 0; i < text.length; i++) {
      const k = text.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    this.#a = (h1 ^ h2 ^ h3 ^ h4) >>> 0;
    this.#b = (h2 ^ h1) >>> 0;
    this.#c = (h3 ^ h1) >>> 0;
    this.#d = (h4 ^ h1) >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A generator seeded from the operating system: for identifiers, which must differ between runs. */
  static unpredictable(): Random {
    return new Random(randomBytes(16).toString('hex'));
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return itemAt(items, Math.floor(this.next() * items.length));
  }

  /** An index into `weights`, each chosen in proportion to its weight. */
  weightedIndex(weights: readonly number[]): number {
    let total = 0;
    for (const weight of weights) total += weight;
    let point = this.next() * total;
    for (const [i, weight] of weights.entries()) {
      point -= weight;
      if (point < 0) return i;
    }
    return weights.length - 1;
  }

  /** Log-normal with the given median and shape: most values near the median, a long right tail. */
  logNormal(median: number, sigma: number): number {
    const u = 1 - this.next();
    const v = this.next();
    const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(sigma * normal);
  }

  /** Identifier in the service's format: prefix plus 12 URL-safe characters (docs/behaviour.md §1). */
  id(prefix: string): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let out = prefix;
    for (let i = 0; i < 12; i++) out += alphabet[Math.floor(this.next() * 64)];
    return out;
  }
}
