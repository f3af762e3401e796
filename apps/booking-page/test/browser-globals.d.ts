// The few browser globals that the tests' page.evaluate callbacks read (they run in the page, not in Node). The test
// files compile without the DOM library, whose fetch types clash with Node's in the shared test kit.
interface PageElement {
  tagName: string;
  id: string;
  className: unknown;
  textContent: string | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { left: number; right: number; width: number; height: number };
  closest(selector: string): PageElement | null;
  matches(selector: string): boolean;
}
declare const document: {
  cookie: string;
  activeElement: PageElement | null;
  documentElement: { clientWidth: number; scrollWidth: number };
  querySelectorAll(selector: string): ArrayLike<PageElement>;
};
declare const window: object;
declare function getComputedStyle(element: PageElement): { display: string; visibility: string };
