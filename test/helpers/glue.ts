/**
 * Lost newlines: each line at a position in `at` is written onto the line before it (never
 * onto or from a broken line, whose end is unknowable). The lines are changed in place.
 */
export function glueLines(raw: string[], at: readonly number[]): void {
  for (const i of [...new Set(at)].sort((a, b) => b - a)) {
    if (i < 1 || i >= raw.length || !isJson(raw[i - 1]!) || !isJson(raw[i]!)) continue;
    raw.splice(i - 1, 2, raw[i - 1]! + raw[i]!);
  }
}

export function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
