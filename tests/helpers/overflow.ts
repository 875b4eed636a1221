/**
 * What a page hides from its reader by its layout, measured in the browser: content clipped by a
 * box that hides its overflow, content spilling out of its box over its neighbours, and anything reaching past the window's right edge without a
 * scroll container of its own (the page or the main area scrolling sideways does not count).
 */
import type { Page } from 'playwright-core';

/**
 * The measuring script, run in the page as plain JavaScript (tsx would wrap a TypeScript function's
 * inner functions in a helper the page does not have). Resolves with one line per element.
 */
const measure = `(() => {
  const found = [];
  const describe = (el) => {
    const label = el.getAttribute('aria-label') || el.getAttribute('data-testid') || el.id || '';
    const text = (el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
    const classes = [...el.classList].map((c) => '.' + c).join('');
    return '<' + el.tagName.toLowerCase() + classes + (label ? ' "' + label + '"' : '') + '> "' + text + '"';
  };
  const pageBoxes = new Set([document.documentElement, document.body, document.querySelector('main')]);
  const scrollsAcross = (el) => /auto|scroll/.test(getComputedStyle(el).overflowX);
  const inOwnScrollBox = (el) => {
    for (let box = el.parentElement; box && !pageBoxes.has(box); box = box.parentElement)
      if (scrollsAcross(box)) return true;
    return false;
  };
  const width = document.documentElement.clientWidth;
  const reported = new Set();
  for (const el of document.querySelectorAll('body *')) {
    if (el.parentElement && reported.has(el.parentElement)) {
      reported.add(el); // said of its box already
      continue;
    }
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1) continue; // visually hidden, for screen readers
    if (!(el instanceof HTMLElement)) continue; // chart drawings scale to their box
    // A typed path longer than its field scrolls inside the field, with the caret.
    if (el instanceof HTMLInputElement && /^(text|search|url)$/.test(el.type)) continue;
    const style = getComputedStyle(el);
    const ellipsisWithTooltip = style.textOverflow === 'ellipsis' && !!el.closest('[title]');
    if (/hidden|clip/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1 && !ellipsisWithTooltip) {
      found.push(describe(el) + ' clips ' + (el.scrollWidth - el.clientWidth) + 'px across');
      reported.add(el);
    } else if (/hidden|clip/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1) {
      found.push(describe(el) + ' clips ' + (el.scrollHeight - el.clientHeight) + 'px down');
      reported.add(el);
    } else if (
      style.overflowX === 'visible' &&
      style.display !== 'inline' &&
      !/^(table-cell|table-row|contents)$/.test(style.display) &&
      el.scrollWidth > el.clientWidth + 1 &&
      el.clientWidth > 0
    ) {
      // Not clipped, but out of its box: over its neighbour, or under it.
      found.push(describe(el) + ' spills ' + (el.scrollWidth - el.clientWidth) + 'px out of its box');
      reported.add(el);
    } else if (rect.right > width + 1 && !inOwnScrollBox(el)) {
      found.push(describe(el) + ' reaches ' + Math.round(rect.right - width) + 'px past the window');
      reported.add(el);
    }
  }
  return found;
})()`;

export function clippedContent(page: Page): Promise<string[]> {
  return page.evaluate(measure) as Promise<string[]>;
}
