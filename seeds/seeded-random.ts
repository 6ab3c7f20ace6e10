/**
 * A small, fast, seeded pseudo-random generator (sfc32, seeded through splitmix32). The seeder's
 * hot loop draws tens of millions of numbers for a million orders; this costs nanoseconds per draw
 * and its sequence depends on nothing but the seed, so the same seed gives the same data on any
 * machine and any Faker release. (Faker is used only to build the pools of names and addresses.)
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    // Both halves of the seed count, so seeds above 2^32 are not folded onto smaller ones.
    let state =
      (seed >>> 0) ^ Math.imul(Math.floor(seed / 2 ** 32), 0x9e3779b9);
    const splitmix32 = () => {
      state = (state + 0x9e3779b9) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.a = splitmix32();
    this.b = splitmix32();
    this.c = splitmix32();
    this.d = splitmix32();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4_294_967_296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One of `choices`, each as likely as its weight. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of choices) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  /** `length` characters drawn from `alphabet`. */
  string(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) {
      out += alphabet[Math.floor(this.next() * alphabet.length)];
    }
    return out;
  }
}
