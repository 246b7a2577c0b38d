/** 12,340: numbers as people read them. Coerced first, so a value of the wrong type can only print as NaN. */
export function count(n: number): string {
  return Number(n).toLocaleString('en-US');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${Number(n) === 1 ? one : many}`;
}
