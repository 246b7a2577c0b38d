/** The shells `completion` writes a script for (names only: the CLI lists them without loading the generators). */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export type Shell = (typeof SHELLS)[number];
