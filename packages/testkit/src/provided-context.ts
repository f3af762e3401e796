// What globalSetup hands to every test file through vitest's provide/inject.
declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
  }
}

export {};
