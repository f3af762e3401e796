// What the booking page's browser tests check of every page at both widths: nothing reaches past the viewport's
// sides, no text box is too narrow to type in, and every button and link is at least 44x44 px on the phone (text
// links inside a sentence excepted, as WCAG 2.5.8 does).
import type { Page } from 'playwright-core';

export async function layoutProblems(page: Page): Promise<string[]> {
  const phone = (page.viewportSize()?.width ?? 1280) < 600;
  return page.evaluate((checkTargets) => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    const describe = (el: PageElement) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      if (el.closest('.skip-link, .sr-only, .hp')) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.left < -1 || box.right > width + 1) problems.push(`${describe(el)} reaches ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
      if (el.matches('input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=file]), select, textarea') && box.width < 120)
        problems.push(`${describe(el)} is ${Math.round(box.width)} px wide`);
      const inSentence = el.matches('p a, dd a, span a');
      if (checkTargets && el.matches('button, a, summary, select') && !inSentence && (box.width < 43.5 || box.height < 43.5))
        problems.push(`${describe(el)} is a target of ${Math.round(box.width)}x${Math.round(box.height)} px`);
    }
    return problems;
  }, phone);
}
