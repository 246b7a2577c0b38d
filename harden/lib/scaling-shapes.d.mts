export function piUnanswered(n: number): string;
export function claudeUnanswered(n: number): string;
export function codexUnanswered(n: number): string;
export function geminiUnanswered(n: number): string;
export function piForks(n: number): string;
export function geminiRewinds(n: number): string;
export const SCALING_SHAPES: Record<string, (n: number) => string>;
