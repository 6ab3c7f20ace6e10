const SAFE = /^[A-Za-z0-9/_.,:@+[\]-]{1,100}$/;

/**
 * Client text (a path, a parameter name, an id) fit to repeat in an error message: short and
 * plain. Anything else (spaces, quotes, SQL-looking or very long input) is not echoed back.
 */
export function quoteIfSafe(text: string, otherwise: string): string {
  return SAFE.test(text) ? text : otherwise;
}
