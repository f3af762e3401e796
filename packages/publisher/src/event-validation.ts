// Validation of event payloads against the job catalog, compiled once per job. The publisher runs it before anything
// is enqueued and the worker runs it again on delivery, because a job published before a deploy runs after it.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { JOBS, uuidSchema, type JobName, type JobPayloads } from '@backbone/contracts';
import { ValidationError, type FieldError } from '@backbone/domain';

const ajv = new Ajv({ allErrors: true, coerceTypes: false, useDefaults: false, strict: false });
const compiled = new Map<JobName, ValidateFunction>();

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOBS, name);
}

function validatorFor(name: JobName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.compile(JOBS[name].schema);
    compiled.set(name, validate);
  }
  return validate;
}

/** Every way `payload` breaks the catalog schema of job `name`, one message per member; empty when valid. */
export function validateEvent(name: string, payload: unknown): FieldError[] {
  if (!isJobName(name)) return [{ field: 'name', message: `name '${name}' is not a job of the catalog.` }];
  const validate = validatorFor(name);
  if (validate(payload)) return [];
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const error of validate.errors ?? []) {
    const field = fieldOf(error);
    if (seen.has(field)) continue;
    seen.add(field);
    errors.push({ field, message: messageOf(error, field) });
  }
  return errors;
}

/** Narrows `payload` to the job's type, or throws a ValidationError naming each failing member. */
export function assertValidEvent<N extends JobName>(name: N, payload: unknown): asserts payload is JobPayloads[N] {
  const errors = validateEvent(name, payload);
  if (errors.length > 0) throw new ValidationError(errors.map((e) => ({ field: e.field, message: `${name}: ${e.message}` })));
}

function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (error.keyword === 'required') segments.push((error.params as { missingProperty: string }).missingProperty);
  if (error.keyword === 'additionalProperties') segments.push((error.params as { additionalProperty: string }).additionalProperty);
  return segments.join('.');
}

function messageOf(error: ErrorObject, field: string): string {
  const name = field || 'The payload';
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${name} is required.`;
    case 'additionalProperties':
      return `${name} is not a known member.`;
    case 'type':
      return `${name} must be of type ${String(p.type).replace(',', ' or ')}.`;
    case 'pattern':
      return p.pattern === uuidSchema.pattern ? `${name} must be a UUID.` : `${name} has an invalid format.`;
    case 'minimum':
      return `${name} must be at least ${String(p.limit)}.`;
    case 'maximum':
      return `${name} must be at most ${String(p.limit)}.`;
    case 'minLength':
      return `${name} must not be empty.`;
    case 'maxLength':
      return `${name} must be at most ${String(p.limit)} characters long.`;
    case 'enum':
      return `${name} must be one of: ${(p.allowedValues as unknown[]).join(', ')}.`;
    default:
      return `${name} ${error.message ?? 'is invalid'}.`;
  }
}
