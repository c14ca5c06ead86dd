/** Resolves with the first SIGTERM or SIGINT; the listeners are removed afterwards. */
export function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handler = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', handler);
      process.off('SIGINT', handler);
      resolve(signal);
    };
    process.on('SIGTERM', handler);
    process.on('SIGINT', handler);
  });
}
