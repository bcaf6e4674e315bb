/**
 * Tolerant readers for upstream JSON. The live upstream may omit any optional field, so every reshaper
 * reads through these and still returns the contract's shape: arrays always present, strings typed.
 */

/** The value if it is an array, else []. */
export function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => isRecord(item)) : [];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value if it is an object, else an empty one, so that nested reads never throw. */
export function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** A string, or null when the upstream gave none. */
export function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A string, or "" when the upstream gave none (for fields the contract types as plain strings). */
export function textOrEmpty(value: unknown): string {
  return text(value) ?? '';
}

/** An integer from a number or from text such as "4,340,000,000" or "Cited by 1234"; else null. */
export function integer(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string') {
    const digits = value.replace(/[,\s.]/g, '').match(/-?\d+/)?.[0];
    return digits === undefined ? null : Number(digits);
  }
  return null;
}

/** A finite number, or null. */
export function number(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}
