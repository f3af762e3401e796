// A worker's background task that works in passes: pass after pass while each finds a full batch, then a pause.
// stop() ends the pause at once and waits for the pass in flight. The booking worker's outbox relay and sweepers and
// the metering worker's usage folder run on it.
export interface PassLoop {
  /** Finishes the pass in flight, then stops. */
  stop(): Promise<void>;
}

/** `pass` answers whether to go on at once ('again') or after `intervalMs` ('pause'); it handles its own errors. */
export function startPassLoop(intervalMs: number, pass: () => Promise<'again' | 'pause'>): PassLoop {
  let stopping = false;
  let wake: (() => void) | null = null;
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, intervalMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = async () => {
    while (!stopping) {
      if ((await pass()) === 'pause' && !stopping) await pause();
    }
  };
  const running = loop();
  return {
    async stop() {
      stopping = true;
      wake?.();
      await running;
    },
  };
}
