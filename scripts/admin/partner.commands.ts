// Placeholder: filled in by the partner work.
import type { AdminCommand } from './command.js';

export const partnerCommands: Record<string, AdminCommand> = {};
