export { createOperatorApp } from './app.js';
export type { OperatorAppDeps } from './deps.js';
export { createPasswordResetThrottle, createSignInThrottle } from './sign-in-throttle.js';
export { loadOperatorApiConfig, operatorApiEnv, type OperatorApiConfig } from './config.js';
