/** An error as one log-friendly line: `Name: message`, or the thrown value as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
