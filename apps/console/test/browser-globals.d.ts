// The few browser globals that the tests' page.evaluate callbacks read (they run in the page, not in Node). The test
// files compile without the DOM library, whose fetch types clash with Node's in the shared test kit.
declare const document: { cookie: string; activeElement: { getAttribute(name: string): string | null } | null };
declare const window: object;
