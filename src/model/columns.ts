type Column = Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array;

/** A copy of `column` with room for at least `needed` values: 1.5× growth keeps the spare part small. */
export function growTo<T extends Column>(column: T, needed: number, exact = false): T {
  let size = Math.max(16, column.length);
  while (size < needed) size = Math.ceil(size * 1.5);
  if (exact) size = Math.max(needed, column.length);
  const bigger = new (column.constructor as new (length: number) => T)(size);
  bigger.set(column as never);
  return bigger;
}

/** The first of `count` non-decreasing owners that is `entry` or later. */
export function firstOwned(owners: Uint32Array, count: number, entry: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (owners[middle]! < entry) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Strings that repeat on every line (pointers, tool names) as small integers: one copy each. */
export class StringTable {
  private readonly codes = new Map<string, number>();
  private readonly strings: string[] = [];

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.strings.length;
      this.strings.push(value);
      this.codes.set(value, code);
    }
    return code;
  }

  text(code: number): string {
    return this.strings[code]!;
  }

  get size(): number {
    return this.strings.length;
  }
}
