// The shape of one admin CLI command.
import type { ParseArgsConfig } from 'node:util';
import type { Pool } from '@backbone/db';

export interface AdminContext {
  pool: Pool;
  redisUrl: string;
  /** The queues' prefix unless a command's --prefix names another: QUEUE_PREFIX, else the running stack's, else 'bull'. */
  queuePrefix: string;
}

export interface AdminCommand {
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(options: Record<string, string | boolean | string[] | undefined>, ctx: AdminContext): Promise<unknown>;
}

/** Reads a required string option or throws a message naming it. */
export function requireOption(options: Record<string, unknown>, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new Error(`--${name} is required`);
  return value;
}
