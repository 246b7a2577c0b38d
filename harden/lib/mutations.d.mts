export function random(seed: number): (n: number) => number;
export const MUTATIONS: Record<string, (bytes: Buffer, pick: (n: number) => number) => Buffer>;
export function mutate(bytes: Buffer, seed: number, count?: number): { bytes: Buffer; done: string[] };
