const interned = new Map<string, string>();

/** Tool names repeat on every call; decoders keep one copy of each (of the first few thousand). */
export function intern(value: string): string {
  const known = interned.get(value);
  if (known !== undefined) return known;
  if (interned.size < 4096) interned.set(value, value);
  return value;
}

/** Pointers `<prefix>/<index>` repeat on every line: the first 1024 are made once and shared. */
export function indexedPointers(prefix: string): (index: number) => string {
  const made: string[] = [];
  return (index) => made[index] ?? (index < 1024 ? (made[index] = `${prefix}/${index}`) : `${prefix}/${index}`);
}
