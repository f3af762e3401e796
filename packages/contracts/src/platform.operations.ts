// Placeholder: filled in by the platform work.
import type { Operation } from './operation.js';

export const platformOperations: readonly Operation[] = [];
