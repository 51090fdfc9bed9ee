// Chains of logical operators, ternaries, loops, labels, switch and catch, nested.
export function chains(a: boolean, b: boolean, c: boolean, d?: { e?: { f?: () => number } }): number {
  if (a && b || c) {
    return 1;
  } else if (a && (b && c) && !d) {
    return 2;
  } else if (a ?? b) {
    for (let i = 0; i < 3 && a; i++) {
      while (b) {
        do {
          if (c) continue;
        } while (a || b);
      }
    }
  } else {
    return d?.e?.f?.() ?? 0;
  }
  outer: for (const k in d) {
    for (const v of [1, 2]) {
      if (v > 1) break outer;
      if (k) continue outer;
    }
  }
  switch (a ? 1 : 2) {
    case 1:
      return a ? (b ? 1 : 2) : 3;
    case 2:
    default:
      try {
        return c ? 4 : 5;
      } catch (e) {
        if (e) throw e;
      } finally {
        a ||= b;
        b &&= c;
        d ??= {};
      }
  }
  return 0;
}

export const nestedCallbacks = (items: number[]) =>
  items.map((x) => {
    if (x > 1 && x < 5) {
      return items.filter((y) => (y > x ? y : -y)).reduce((s, y) => s + (y || 0), 0);
    }
    return x;
  });

export class Service {
  private cache = new Map<string, number>();
  static readonly LIMIT = process.env.LIMIT ? Number(process.env.LIMIT) : 10;

  constructor(private readonly name: string = "svc", { retries = 3, backoff = 2 }: { retries?: number; backoff?: number } = {}) {
    if (retries > Service.LIMIT) throw new Error(name);
  }

  async fetch(key: string, [first = 1, second = 2]: number[] = []): Promise<number> {
    const cached = this.cache.get(key);
    if (cached !== undefined && cached > 0 && first) {
      return cached;
    }
    try {
      return await Promise.resolve(first + second);
    } catch {
      return -1;
    }
  }

  static {
    if (Service.LIMIT > 5) {
      console.log("large");
    }
  }
}

export default function (x: number) {
  return x > 0 ? "pos" : x < 0 ? "neg" : "zero";
}

function* gen(n: number) {
  for (let i = 0; i < n; i++) {
    if (i % 2) yield i;
  }
}

export const obj = {
  method(a: number) {
    return a || gen(a);
  },
  arrow: (b: string) => b && b.length,
  get size() {
    return this.arrow("x") ?? 0;
  },
};
