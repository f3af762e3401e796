// Placeholder: filled in by the usage work.
import type { Operation } from './operation.js';

export const usageOperations: readonly Operation[] = [];
