// The base URI of problem `type`s in every test app, so tests can assert whole `type` URIs.
export const PROBLEM_BASE = 'https://problems.example.test';
