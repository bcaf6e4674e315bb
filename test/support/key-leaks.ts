/** What a thrown error would show of a secret: the checks of the credential modules' unit tests. */

/** Runs `run`, which must throw, and returns the error with all the text it carries (message, fields, cause). */
export function thrownText(run: () => unknown): { error: unknown; text: string } {
  try {
    run();
  } catch (error) {
    const own = error instanceof Error ? { ...error, message: error.message, cause: String(error.cause ?? '') } : error;
    return { error, text: `${String(error)} ${JSON.stringify(own)}` };
  }
  throw new Error('expected a throw');
}

/** Every 10-character piece of `value`: a message quoting any of them quotes part of the key. */
export const pieces = (value: string) => Array.from({ length: value.length - 9 }, (_, i) => value.slice(i, i + 10));
