import { UserError } from '../errors.js';

/** Options arrive as text from the command line and as numbers from the library: both are checked the same way. */
export function wholeNumber(value: string | number, flag: string, min: number): number {
  const number = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
  if (!Number.isInteger(number) || number < min) throw new UserError(`${flag} must be a whole number ≥ ${min}, not "${value}"`);
  return number;
}

export function positiveNumber(value: string | number, flag: string): number {
  const number = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new UserError(`${flag} must be a positive number, not "${value}"`);
  return number;
}
