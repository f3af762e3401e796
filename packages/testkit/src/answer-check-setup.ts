// Every test file ends with the answer check: no answer of its in-process apps broke its operation's response schema.
import { afterAll } from 'vitest';
import { assertAnswersKeptTheirSchemas } from './answer-check.js';

afterAll(assertAnswersKeptTheirSchemas);
