// order.completed -> one 'order-completed' entry whose ExtraInfo carries the basket.
import { builtInMeterEntry } from '../built-in-meter.js';
import { defineHandler } from './job-handler.js';

export const orderCompletedHandler = defineHandler('order.completed', async (event, ctx) => {
  await ctx.recordUsage(builtInMeterEntry('order.completed', event, JSON.stringify({ BasketID: event.BasketID })));
});
