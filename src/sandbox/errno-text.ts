/** `EACCES: permission denied, mkdir '…'` — an fs error as one short phrase for a log line. */
export function errnoText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
