// The shape of one admin CLI command, and how a command speaks of its options: the rules live in the use cases and
// the contracts; a command parses its options, calls, and prints, naming in any refusal the option it came from.
import type { ParseArgsConfig } from 'node:util';
import { compileValidator } from '@backbone/contracts';
import type { Pool } from '@backbone/db';
import { ValidationError, type AuditActor, type FieldError } from '@backbone/domain';

export interface AdminContext {
  pool: Pool;
  redisUrl: string;
  /** The queues' prefix unless a command's --prefix names another: QUEUE_PREFIX, else the running stack's, else 'bull'. */
  queuePrefix: string;
}

/** Who the audit log records as making a change through the CLI. */
export const CLI_ACTOR: AuditActor = { kind: 'cli' };

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

/** The option each field of a request comes from: the use case's or the contract's field name -> the option's name. */
export type OptionNames = Record<string, string>;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One refused field as the CLI says it: each field name in the message (outside quoted values) becomes its option,
 * and a message that does not name its field gets the option in front.
 */
function inOptionTerms(error: FieldError, names: OptionNames): string {
  const option = names[error.field];
  if (option === undefined) return error.message;
  let named = false;
  const message = error.message
    .split(/('[^']*')/)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      for (const [field, name] of Object.entries(names)) {
        part = part.replace(new RegExp(`(?<![\\w.])${escape(field)}(?![\\w.])`, 'g'), () => {
          if (field === error.field) named = true;
          return `--${name}`;
        });
      }
      return part;
    })
    .join('');
  return named ? message : `--${option}: ${message}`;
}

/** Runs `work`; a ValidationError it throws comes out as an Error whose message names the options (see inOptionTerms). */
export async function naming<T>(names: OptionNames, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationError) throw new Error(error.errors.map((e) => inOptionTerms(e, names)).join('; '));
    throw error;
  }
}

/**
 * Checks a request built from the options against the API's own schema for it, so the CLI takes exactly what the API
 * takes; query and path values are given as text and converted as the API converts them.
 */
export function checkAgainstContract(schema: object, source: 'body' | 'query' | 'params', request: Record<string, unknown>, names: OptionNames): void {
  const errors = compileValidator(schema, source)(request);
  if (errors.length > 0) throw new Error(errors.map((e) => inOptionTerms(e, names)).join('; '));
}
