// What to show or log for anything thrown: an Error's message, or the thrown value as text.

/** `error.message` for an Error, `String(error)` for anything else thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
