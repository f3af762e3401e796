// Placeholder: filled in by the partner work.
import type { Operation } from './operation.js';

export const partnerOperations: readonly Operation[] = [];
