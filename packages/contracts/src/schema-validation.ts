// Validation against the contract's JSON Schemas with ajv, compiled once per schema, with messages that name the
// failing member. HTTP requests and queued events use the same validator. Bodies and payloads are checked as sent
// (a "5" is not a number); query strings and path parameters are coerced, since they arrive as text.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { EARLIEST_INSTANT_MS, isCalendarDate, LATEST_INSTANT_MS, uuidSchema } from './common.schemas.js';

const rfc3339DateTime = fullFormats['date-time'] as { validate: (value: string) => boolean };

/** One failing member: `field` is its dotted path (`Customer.Email`, `Answers[2].Value`). */
export interface FieldError {
  field: string;
  message: string;
}

function makeAjv(coerceTypes: boolean): Ajv {
  // strict: false would also let Infinity through as a number (JSON 1e400 parses to it); strictNumbers keeps it out.
  // verbose puts parentSchema on errors, where messageOf finds a schema's x-message.
  const ajv = new Ajv({ allErrors: true, coerceTypes, useDefaults: false, strict: false, strictNumbers: true, verbose: true });
  addFormats.default(ajv, ['email', 'uri']);
  // The one date rule (isCalendarDate): ajv-formats' date takes year 0000, which PostgreSQL refuses (a 500 behind a 422).
  ajv.addFormat('date', { type: 'string', validate: isCalendarDate });
  // RFC 3339 (and ajv-formats) also takes a leap second (23:59:60) and an offset without minutes (+01), neither of
  // which JavaScript's Date can read, and years outside the calendar dates' range: an instant the API accepts must be
  // one every layer behind it can use, and one it can write back with a four-digit year.
  ajv.addFormat('date-time', { type: 'string', validate: isInstant });
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  return ajv;
}

/** An RFC 3339 date-time JavaScript can read, on a calendar date and at an instant within 0001-01-01 to 9999-12-31 (UTC). */
export function isInstant(value: string): boolean {
  if (!rfc3339DateTime.validate(value) || !isCalendarDate(value.slice(0, 10))) return false;
  const at = Date.parse(value);
  return at >= EARLIEST_INSTANT_MS && at <= LATEST_INSTANT_MS;
}

const bodyAjv = makeAjv(false);
const queryAjv = makeAjv(true);
// One cache per ajv: a schema compiled for a body must not answer for a query, which coerces text, nor the reverse.
const bodyCache = new WeakMap<object, ValidateFunction>();
const queryCache = new WeakMap<object, ValidateFunction>();

export type Validator = (data: unknown) => FieldError[];

/** A validator for `schema`; `source` 'body' (also for event payloads) checks types as sent, 'query'/'params' coerce text. */
export function compileValidator(schema: object, source: 'body' | 'query' | 'params'): Validator {
  const [ajv, cache] = source === 'body' ? [bodyAjv, bodyCache] : [queryAjv, queryCache];
  let validate = cache.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    cache.set(schema, validate);
  }
  const compiled = validate;
  if (source === 'body') return (data) => (compiled(data) ? [] : toFieldErrors(compiled.errors ?? []));
  const numeric = numericMembers(schema);
  return (data) => {
    const unreadable = numeric.flatMap(({ name, type }) => {
      const value = (data as Record<string, unknown> | null)?.[name];
      return typeof value === 'string' && !DECIMAL_TEXT[type].test(value) ? [{ field: name, message: `${name} must be of type ${type}.` }] : [];
    });
    if (unreadable.length > 0) return unreadable;
    return compiled(data) ? [] : toFieldErrors(compiled.errors ?? []);
  };
}

// ajv's coercion reads text as JavaScript's Number does: "Infinity", "1e400", "0x10", " 5" and "5.0" all become
// numbers, and Infinity passed its integer check and reached PostgreSQL (a 500), while "0x10" named timeslot 16. Text
// in the query or the path is a number only when written in plain decimals.
const DECIMAL_TEXT = { integer: /^-?(0|[1-9]\d{0,15})$/, number: /^-?(0|[1-9]\d{0,15})(\.\d{1,15})?$/ } as const;

function numericMembers(schema: object): Array<{ name: string; type: 'integer' | 'number' }> {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties).flatMap(([name, member]) => (member.type === 'integer' || member.type === 'number' ? [{ name, type: member.type }] : []));
}

/** Dotted path of the failing member: `Customer.Email`, `Answers[2].Value`. */
function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (error.keyword === 'required') segments.push((error.params as { missingProperty: string }).missingProperty);
  if (error.keyword === 'additionalProperties') segments.push((error.params as { additionalProperty: string }).additionalProperty);
  if (error.keyword === 'dependencies') segments.push((error.params as { missingProperty: string }).missingProperty);
  return segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '');
}

function messageOf(error: ErrorObject, field: string): string {
  const name = field || 'The request';
  const custom = (error.parentSchema as { 'x-message'?: string } | undefined)?.['x-message'];
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${name} is required.`;
    case 'additionalProperties':
      return `${name} is not a known member.`;
    case 'type':
      return custom ? `${name} ${custom}` : `${name} must be of type ${String(p.type).replace(',', ' or ')}.`;
    case 'exclusiveMinimum':
      return `${name} must be greater than ${String(p.limit)}.`;
    case 'minimum':
      return `${name} must be at least ${String(p.limit)}.`;
    case 'maximum':
      return `${name} must be at most ${String(p.limit)}.`;
    case 'minLength':
      return p.limit === 1 ? `${name} must not be empty.` : `${name} must be at least ${String(p.limit)} characters long.`;
    case 'maxLength':
      return `${name} must be at most ${String(p.limit)} characters long.`;
    case 'maxItems':
      return `${name} must have at most ${String(p.limit)} items.`;
    case 'minItems':
      return `${name} must have at least ${String(p.limit)} items.`;
    case 'minProperties':
      return `${name} must have at least ${String(p.limit)} member${p.limit === 1 ? '' : 's'}.`;
    case 'dependencies':
      return `${name} is required with ${String(p.property)}.`;
    case 'enum':
      return `${name} must be one of: ${(p.allowedValues as unknown[]).join(', ')}.`;
    case 'pattern':
      if (custom) return `${name} ${custom}`;
      return p.pattern === uuidSchema.pattern ? `${name} must be a UUID.` : `${name} has an invalid format.`;
    default:
      return custom ? `${name} ${custom}` : `${name} ${error.message ?? 'is invalid'}.`;
  }
}

function toFieldErrors(errors: ErrorObject[]): FieldError[] {
  const seen = new Set<string>();
  const result: FieldError[] = [];
  for (const error of errors) {
    if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const field = fieldOf(error);
    // One message per field: the first failure is the most specific.
    if (seen.has(field)) continue;
    seen.add(field);
    result.push({ field, message: messageOf(error, field) });
  }
  return result;
}
