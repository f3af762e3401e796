// Validation of event payloads against the job catalog, compiled once per job. The publisher runs it before anything
// is enqueued and the worker runs it again on delivery, because a job published before a deploy runs after it.
import { compileValidator, JOBS, type FieldError, type JobName, type JobPayloads, type Validator } from '@backbone/contracts';
import { ValidationError } from '@backbone/domain';

const compiled = new Map<JobName, Validator>();

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOBS, name);
}

function validatorFor(name: JobName): Validator {
  let validate = compiled.get(name);
  if (!validate) {
    validate = compileValidator(JOBS[name].schema, 'body');
    compiled.set(name, validate);
  }
  return validate;
}

/** Every way `payload` breaks the catalog schema of job `name`, one message per member; empty when valid. */
export function validateEvent(name: string, payload: unknown): FieldError[] {
  if (!isJobName(name)) return [{ field: 'name', message: `name '${name}' is not a job of the catalog.` }];
  return validatorFor(name)(payload);
}

/** Narrows `payload` to the job's type, or throws a ValidationError naming each failing member. */
export function assertValidEvent<N extends JobName>(name: N, payload: unknown): asserts payload is JobPayloads[N] {
  const errors = validateEvent(name, payload);
  if (errors.length > 0) throw new ValidationError(errors.map((e) => ({ field: e.field, message: `${name}: ${e.message}` })));
}
