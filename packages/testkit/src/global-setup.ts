// vitest globalSetup: one PostgreSQL and one Redis for the whole run, handed to every test file by inject().
import type { TestProject } from 'vitest/node';
import { findOrStartInfrastructure } from './infrastructure.js';

import './provided-context.js';

export default async function setup(project: TestProject) {
  const infrastructure = await findOrStartInfrastructure();
  project.provide('databaseUrl', infrastructure.databaseUrl);
  project.provide('redisUrl', infrastructure.redisUrl);
  return () => infrastructure.stop();
}
