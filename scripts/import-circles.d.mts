/** file (relative to the root) → the files of the tree it imports. */
export function importGraph(root: string, options?: { types?: boolean }): Map<string, string[]>;
/** Each import circle as the sorted list of its files. */
export function importCircles(root: string, options?: { types?: boolean }): string[][];
