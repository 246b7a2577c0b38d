export function baseEnv(home: string): NodeJS.ProcessEnv;
