// Placeholder: filled in by the queue work.
import type { AdminCommand } from './command.js';

export const queueCommands: Record<string, AdminCommand> = {};
