// The mail worker's loop: pass after pass while each claims a full batch, then a pause; a failed pass leaves its rows
// queued (its transaction rolled back) and is tried again after the pause.
import { hasMailWork } from '@backbone/db';
import { startPassLoop, type PassLoop } from '@backbone/shutdown';
import { deliverDueMail, type MailDeliveryOptions } from './mail-delivery.js';

export function startMailDelivery(options: MailDeliveryOptions & { intervalMs: number }): PassLoop {
  let idle = false;
  return startPassLoop(options.intervalMs, async () => {
    try {
      // An idle worker polls often: its passes cost one indexed look until there is something to do.
      if (idle && !(await hasMailWork(options.pool))) return 'pause';
      const claimed = await deliverDueMail(options);
      idle = claimed === 0;
      return claimed < options.batchSize ? 'pause' : 'again';
    } catch (err) {
      options.logger.warn({ err }, 'mail pass failed');
      idle = false;
      return 'pause';
    }
  });
}
