// workflow-email.sent -> one 'workflow-email-sent' entry; the contract gives it no ExtraInfo.
import { builtInMeterEntry } from '../built-in-meter.js';
import { defineHandler } from './job-handler.js';

export const workflowEmailSentHandler = defineHandler('workflow-email.sent', async (event, ctx) => {
  await ctx.recordUsage(builtInMeterEntry('workflow-email.sent', event, null));
});
