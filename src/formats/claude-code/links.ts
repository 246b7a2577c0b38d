/**
 * The `uuid` and `parentUuid` of a line too broken to parse, found in its text (Claude Code's
 * links, which Qwen Code keeps as they are).
 */
export function recoverUuidLinks(text: string): { id: string; parentId: string | null } | undefined {
  const id = /"uuid"\s*:\s*"([^"\\]+)"/.exec(text)?.[1];
  const parent = /"parentUuid"\s*:\s*(null|"([^"\\]+)")/.exec(text);
  if (id === undefined || parent === null) return undefined;
  return { id, parentId: parent[2] ?? null };
}
